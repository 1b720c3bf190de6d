/**
 * `attachNotifier`'s `desktop: false`: a screen attached to a background agent leaves the
 * desktop's notification to the agent, so an event never reaches the desktop twice. A real
 * (fake) `notify-send` on PATH records the calls.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { AgentEvent, AgentListener } from '../../src/api/events.js';
import type { TurnTrace } from '../../src/api/trace.js';
import { notifySchema } from '../../src/config/notifySchema.js';
import { makeMessage } from '../../src/core/messages.js';
import { attachNotifier } from '../../src/notify/attach.js';
import type { Notification } from '../../src/notify/notification.js';
import { createFakeNotifier, type FakeNotifier } from './fakeNotifier.js';

let fake: FakeNotifier | undefined;
afterEach(async () => {
  await fake?.dispose();
  fake = undefined;
});

const waitTurn: AgentEvent[] = [
  { type: 'turn_start', turnId: 1, trigger: 'user', cycle: 1 },
  { type: 'message_added', message: makeMessage('assistant', 'Which one? [WAIT]') },
  { type: 'turn_end', turnId: 1, outcome: 'ok', wait: true, trace: {} as TurnTrace },
];

async function run(desktop: boolean | undefined) {
  fake = await createFakeNotifier();
  let listener: AgentListener = () => undefined;
  const terminal: Notification[] = [];
  const { notifier } = attachNotifier(
    { subscribe: (l) => ((listener = l), () => undefined), send: () => undefined },
    {
      config: notifySchema.parse({ desktop: true }),
      env: fake.env,
      platform: 'linux',
      // An attached screen whose terminal lost focus.
      screen: {
        focused: () => false,
        channel: { name: 't', send: async (n) => void terminal.push(n) },
      },
      ...(desktop === undefined ? {} : { desktop }),
    },
  );
  waitTurn.forEach((e) => listener(e));
  await notifier.settled();
  return { terminal: terminal.map((n) => n.text), desktop: await fake.calls() };
}

describe('attachNotifier', () => {
  test('desktop: false: only the terminal, even with notify.desktop', async () => {
    expect(await run(false)).toEqual({ terminal: ['Which one?'], desktop: [] });
  });

  test('by default notify.desktop adds the desktop', async () => {
    const r = await run(undefined);
    expect(r.terminal).toEqual(['Which one?']);
    expect(r.desktop).toEqual([['--app-name=Cogito', '--', 'Cogito', 'Which one?']]);
  });
});
