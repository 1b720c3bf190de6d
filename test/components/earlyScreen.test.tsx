/**
 * The screen is drawn before the app is made (components/runTui.tsx, lateAgent.ts): it says
 * what is starting, and what the user types meanwhile is kept: a message sent with Enter
 * reaches the agent once it exists, a line not yet sent stays in the input box.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { runTui, type TuiApp, type TuiAppResult } from '../../components/runTui.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { plain, waitFor } from '../helpers/waitForFrame.js';

function rig(flags = NO_FLAGS) {
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const stdin = new FakeStdin({ isTTY: true });
  const stdout = new FakeStdout([], { isTTY: true });
  const proc = new EventEmitter();
  let made: (result: TuiAppResult) => void = () => undefined;
  const creating = new Promise<TuiAppResult>((resolve) => (made = resolve));
  let asked = 0;
  const app: TuiApp = {
    agent: c,
    config: { workspace: '/work/notes', language: 'en' },
    warnings: [],
    close: async () => undefined,
  };
  const run = runTui(flags, {
    createApp: () => {
      asked++;
      return creating;
    },
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
    env: {},
    proc,
  });
  const screen = (): string => plain(stdout.text());
  return { c, stdin, proc, run, screen, app, made, asked: () => asked };
}

describe('the screen drawn while the app starts', () => {
  test('shows what is starting; a message typed meanwhile is sent when ready, a draft kept', async () => {
    const r = rig();
    await waitFor(() => r.screen().includes('starting: configuration'), 'the starting status');
    expect(r.asked()).toBe(1);
    await waitFor(() => r.stdin.listenerCount('readable') > 0, 'the input to be read');
    for (const ch of 'hello') r.stdin.write(ch);
    r.stdin.write('\r');
    for (const ch of 'draft') r.stdin.write(ch);
    await waitFor(() => r.screen().includes('draft'), 'the draft on the screen');
    // No agent yet: nothing reached it, nothing is lost either.
    expect(r.c.calls.filter((x) => x.method === 'submit')).toEqual([]);

    r.made({ ok: true, app: r.app });
    await waitFor(
      () => r.c.calls.some((x) => x.method === 'submit' && x.text === 'hello'),
      'the message typed during the start to reach the agent',
    );
    // The loop was started (the screen mounted before the agent existed) and then the message.
    expect(r.c.methods().indexOf('start')).toBeLessThan(r.c.methods().indexOf('submit'));
    await waitFor(() => r.screen().includes('Your turn'), "the agent's own status");
    // The line not yet sent is still in the input box: Enter now sends it.
    r.stdin.write('\r');
    await waitFor(
      () => r.c.calls.some((x) => x.method === 'submit' && x.text === 'draft'),
      'the draft kept in the input box to be sent',
    );

    r.proc.emit('SIGTERM');
    expect(await r.run).toBe(143);
  });

  test('started --paused, the status says Paused while starting, never Thinking', async () => {
    const r = rig({ ...NO_FLAGS, paused: true });
    await waitFor(() => r.screen().includes('starting: configuration'), 'the starting status');
    expect(r.screen()).toMatch(/Paused · starting: configuration/);
    expect(r.screen()).not.toMatch(/Thinking/);
    r.made({ ok: true, app: r.app });
    await waitFor(() => r.screen().includes('Your turn'), "the agent's own status");
    r.proc.emit('SIGTERM');
    expect(await r.run).toBe(143);
  });

  test('a quit during the start ends the screen; the app, once made, is closed', async () => {
    const r = rig();
    await waitFor(() => r.screen().includes('starting: configuration'), 'the starting status');
    let closed = 0;
    r.app.close = async () => void closed++;
    r.proc.emit('SIGTERM');
    r.made({ ok: true, app: r.app });
    expect(await r.run).toBe(143);
    expect(closed).toBe(1);
    expect(r.c.methods()).not.toContain('start');
  });
});
