/**
 * `notify.command`: the user's own program gets each event as JSON on stdin. A notifier that
 * is missing, fails or hangs becomes one visible notice, never a crash or a stuck agent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createDesktopChannel } from '../../src/notify/desktopChannel.js';
import { createNotifier } from '../../src/notify/notifier.js';
import { notifySchema } from '../../src/config/notifySchema.js';
import type { AgentEvent } from '../../src/api/events.js';
import { createFakeNotifier, type FakeNotifier } from './fakeNotifier.js';

let fake: FakeNotifier | undefined;
afterEach(async () => {
  await fake?.dispose();
  fake = undefined;
});

const defaults = notifySchema.parse({});
const approval = (id: number, call: string): AgentEvent => ({
  type: 'approval_request',
  request: { id, tool: 'run', kind: 'process', call, reason: 'process calls ask first' },
});
const AT = new Date('2026-05-01T12:00:00Z');

describe('notify.command', () => {
  test('gets the event as one JSON object on stdin, once per event', async () => {
    fake = await createFakeNotifier();
    const failures: string[] = [];
    const notifier = createNotifier({
      config: { ...defaults, command: fake.command },
      desktop: createDesktopChannel({
        config: { command: fake.command },
        env: fake.env,
        workspace: '/work/notes',
      }),
      onFailure: (t) => failures.push(t),
      now: () => AT,
    });
    notifier.handle(approval(7, 'run("make deploy")'));
    // The same request reported again (a re-render, a replay) is not a second event.
    notifier.handle(approval(7, 'run("make deploy")'));
    await notifier.settled();
    expect(await fake.calls()).toEqual([
      {
        kind: 'approval',
        title: 'Cogito',
        text: 'Approval needed: run("make deploy") (process calls ask first)',
        key: 'approval:7',
        at: '2026-05-01T12:00:00.000Z',
        workspace: '/work/notes',
      },
    ]);
    expect(failures).toEqual([]);
  });

  test('a string command is split on spaces into program and arguments, with no shell', async () => {
    fake = await createFakeNotifier();
    // Under a shell `;` would end the command and `$(…)` run one; here they are arguments.
    const command = `${fake.command.join(' ')} ;exit 9 $(exit 9)`;
    const channel = createDesktopChannel({ config: { command }, env: fake.env });
    await channel.send({ kind: 'wait', key: 'wait:1', title: 'Cogito', text: 'hi', at: 0 });
    expect(await fake.calls()).toEqual([
      { kind: 'wait', title: 'Cogito', text: 'hi', key: 'wait:1', at: '1970-01-01T00:00:00.000Z' },
    ]);
  });
});

describe('a notifier that fails', () => {
  function failing(command: string[] | undefined, env: NodeJS.ProcessEnv, timeoutMs?: number) {
    const failures: string[] = [];
    const notifier = createNotifier({
      config: defaults,
      desktop: createDesktopChannel({
        config: command ? { command } : {},
        platform: 'linux',
        env,
        ...(timeoutMs ? { timeoutMs } : {}),
      }),
      onFailure: (t) => failures.push(t),
    });
    return { notifier, failures };
  }

  test('notify-send missing: one notice naming it and the fix, however many events', async () => {
    const { notifier, failures } = failing(undefined, { PATH: '/nonexistent' });
    notifier.handle(approval(1, 'run("a")'));
    notifier.handle(approval(2, 'run("b")'));
    await notifier.settled();
    expect(failures).toEqual([
      'Notification by notify-send failed: notify-send was not found; install it, or set "notify.command" in config.json to a program of your own',
    ]);
  });

  test('a command that exits with an error: its code and what it said', async () => {
    const script = 'process.stderr.write("no phone today"); process.exit(3)';
    const { notifier, failures } = failing([process.execPath, '-e', script], process.env);
    notifier.handle(approval(1, 'run("a")'));
    await notifier.settled();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/notify\.command failed: .* exited with code 3: no phone today/);
    expect(failures[0]).toMatch(/check "notify.command" in config.json/);
  });

  test('a command that hangs is stopped at its time limit and reported', async () => {
    const hang = [process.execPath, '-e', 'setInterval(() => {}, 1000)'];
    const { notifier, failures } = failing(hang, process.env, 300);
    notifier.handle(approval(1, 'run("a")'));
    await notifier.settled();
    expect(failures[0]).toMatch(/did not finish within its time and was stopped/);
  });
});
