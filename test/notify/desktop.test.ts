/**
 * A background agent (no screen) notifies through the desktop: a fake `notify-send` on PATH
 * records each call, for a real agent run against the scripted server.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { attachNotifier } from '../../src/notify/attach.js';
import { notifySchema, type NotifySettings } from '../../src/config/notifySchema.js';
import type { Notifier } from '../../src/notify/notifier.js';
import type { AgentEvent } from '../../src/api/events.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';
import { createFakeNotifier, type FakeNotifier } from './fakeNotifier.js';

let h: Harness | undefined;
let fake: FakeNotifier | undefined;
afterEach(async () => {
  await h?.dispose();
  await fake?.dispose();
  h = fake = undefined;
});

interface Rig {
  h: Harness;
  fake: FakeNotifier;
  notifier: Notifier;
  notices: string[];
}

async function rig(
  harness: Parameters<typeof createHarness>[0] = {},
  config: Partial<NotifySettings> = {},
): Promise<Rig> {
  h = await createHarness(harness);
  fake = await createFakeNotifier();
  const notices: string[] = [];
  h.agent.subscribe((e: AgentEvent) => {
    if (e.type === 'notice') notices.push(e.text);
  });
  const { notifier } = attachNotifier(h.agent, {
    config: { ...notifySchema.parse({}), ...config },
    env: fake.env,
    platform: 'linux',
    workspace: h.workspaceDir,
  });
  return { h, fake, notifier, notices };
}

/** Waits for `n` calls, then for every send to end, and returns all calls seen. */
async function callsAfter(r: Rig, n: number): Promise<unknown[]> {
  await waitUntil(async () => (await r.fake.calls()).length >= n, `${n} notify-send calls`);
  await r.h.agent.idle();
  await r.notifier.settled();
  return r.fake.calls();
}

describe('desktop notifications of a background agent', () => {
  test('a [WAIT] reply: one notify-send call with the reply first line', async () => {
    const r = await rig();
    r.h.server.push({
      kind: 'stream',
      content: '\n-rf Which branch should I merge?\nmain or next. [WAIT]',
    });
    r.h.agent.start();
    r.h.agent.send({ type: 'submit', text: 'merge it' });
    await waitForStore(r.h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    // A text starting with "-" is the body, not an option: `--` comes before it.
    expect(await callsAfter(r, 1)).toEqual([
      ['--app-name=Cogito', '--', 'Cogito', '-rf Which branch should I merge?'],
    ]);
    expect(r.notices).toEqual([]);
  });

  test('an approval, then the [WAIT] after it: one call each, in order', async () => {
    const r = await rig();
    await writeFile(path.join(r.h.workspaceDir, 'old.txt'), 'old');
    r.h.server.push(
      { kind: 'stream', content: 'Cleaning up.\n[TOOL] delete("old.txt") [/TOOL]' },
      { kind: 'stream', content: 'Done, the file is gone. [WAIT]' },
    );
    r.h.agent.start();
    r.h.agent.send({ type: 'submit', text: 'tidy up' });
    await waitForStore(r.h.agent.store, (s) => s.approval !== undefined, 'the approval');
    const asked = await waitUntil(async () => (await r.fake.calls())[0], 'the approval call');
    expect((asked as string[]).at(-1)).toMatch(/^Approval needed: delete\("old.txt"\) \(.+\)$/);
    r.h.agent.send({ type: 'answer_approval', answer: 'yes' });
    await waitForStore(r.h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    const calls = (await callsAfter(r, 2)) as string[][];
    expect(calls.map((c) => c.at(-1))).toEqual([
      (asked as string[]).at(-1),
      'Done, the file is gone.',
    ]);
  });

  test('a budget pause: one call naming the budget, however long it stays paused', async () => {
    const r = await rig({ initialState: 'THINKING', settings: { tokenBudgetPerHour: 12_000 } });
    r.h.server.setDefault((req) => ({
      kind: 'stream',
      content: `Looked at note ${req.index}.`,
      usage: { prompt_tokens: 5980, completion_tokens: 20 },
    }));
    r.h.agent.start();
    await waitForStore(r.h.agent.store, (s) => s.machine === 'PAUSED', 'the budget pause');
    const calls = (await callsAfter(r, 1)) as string[][];
    expect(calls).toHaveLength(1);
    expect(calls[0]!.at(-1)).toMatch(/^Paused: .*hourly token budget/);
  });

  test('a pause the user asked for notifies nobody', async () => {
    const r = await rig({ initialState: 'THINKING' });
    r.h.server.setDefault(() => ({ kind: 'stream', content: 'Reading.' }));
    r.h.agent.start();
    r.h.agent.send({ type: 'pause' });
    await waitForStore(r.h.agent.store, (s) => s.machine === 'PAUSED', 'the pause');
    await r.h.agent.idle();
    await r.notifier.settled();
    expect(await r.fake.calls()).toEqual([]);
  });

  test('a kind turned off is not notified; the others still are', async () => {
    const kinds = { ...notifySchema.parse({}).kinds, wait: false };
    const r = await rig({ initialState: 'THINKING' }, { kinds });
    await writeFile(path.join(r.h.workspaceDir, 'old.txt'), 'old');
    r.h.server.push(
      { kind: 'stream', content: 'Is this fine? [WAIT]' },
      { kind: 'stream', content: '[TOOL] delete("old.txt") [/TOOL]' },
    );
    r.h.agent.start();
    await waitForStore(r.h.agent.store, (s) => s.machine === 'AWAITING_INPUT', '[WAIT]');
    r.h.agent.send({ type: 'submit', text: 'yes' });
    await waitForStore(r.h.agent.store, (s) => s.approval !== undefined, 'the approval');
    const calls = await waitUntil(async () => (await r.fake.calls())[0], 'the approval call');
    await r.notifier.settled();
    expect(await r.fake.calls()).toEqual([calls]);
    expect((calls as string[]).at(-1)).toMatch(/^Approval needed/);
  });
});
