/**
 * runTui as the screen's root: the one exit it hands the app, the disposer stack it closes
 * however the run ends (stop failures reported after the screen is back), and an error in
 * the middle of start-up still giving the terminal back.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { runTui, type TuiApp, type TuiDeps } from '../../components/runTui.js';
import { LEAVE_ALT_SCREEN, MOUSE_OFF } from '../../components/terminal/terminalGuard.js';
import type { AppOptions } from '../../src/app/createApp.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { waitFor } from '../helpers/waitForFrame.js';

const flags = NO_FLAGS;

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;
const SIGNAL_EVENTS = ['SIGTERM', 'SIGHUP', 'SIGINT', 'uncaughtException', 'unhandledRejection'];

function rig(createApp: (opts: AppOptions) => ReturnType<NonNullable<TuiDeps['createApp']>>) {
  const log: { stream: 'stdout' | 'stderr'; data: string }[] = [];
  const stdin = new FakeStdin();
  const stdout = new FakeStdout(log);
  const stderr = new FakeStderr(log);
  const proc = new EventEmitter();
  const run = runTui(flags, {
    createApp,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    env: {},
    proc,
  });
  return { log, stdin, stdout, stderr, proc, run };
}

function fakeApp(close: TuiApp['close']) {
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const app: TuiApp = {
    agent: c,
    config: { workspace: '/w', language: 'en' },
    warnings: [],
    close,
  };
  return { c, app };
}

describe('runTui as the root', () => {
  test('the exit it hands the app ends the screen and closes the app: one quit path', async () => {
    let closed = 0;
    const { c, app } = fakeApp(async () => void closed++);
    let exit: (() => void) | undefined;
    const r = rig(async (opts) => {
      exit = opts.exit;
      return { ok: true, app };
    });
    await waitFor(() => r.stdout.text().includes('Your turn'), 'the screen to be up');
    expect(exit).toBeDefined();
    exit!();
    expect(await r.run).toBe(0);
    const out = r.stdout.text();
    expect(count(out, LEAVE_ALT_SCREEN)).toBe(1);
    expect(count(out, MOUSE_OFF)).toBe(1);
    expect(closed).toBe(1);
    // The screen unmounted, so the loop stopped; the agent was never asked to exit.
    expect(c.methods()).toEqual(['start', 'stop']);
    for (const event of [...SIGNAL_EVENTS, 'exit']) expect(r.proc.listenerCount(event)).toBe(0);
  });

  test('a stop that fails on close is reported on stderr, after the screen is restored', async () => {
    const { app } = fakeApp(async () => [{ name: 'the MCP servers', error: new Error('EPIPE') }]);
    const r = rig(async () => ({ ok: true, app }));
    await waitFor(() => r.stdout.text().includes('Your turn'), 'the screen to be up');
    r.stdin.write('\x03');
    expect(await r.run).toBe(0);
    const leave = r.log.findIndex((l) => l.data.includes(LEAVE_ALT_SCREEN));
    const failure = r.log.findIndex(
      (l) => l.stream === 'stderr' && l.data === 'cogito: could not stop the MCP servers: EPIPE\n',
    );
    expect(leave).toBeGreaterThanOrEqual(0);
    expect(failure).toBeGreaterThan(leave);
  });

  test('an error thrown after a start-up screen was shown still restores the terminal', async () => {
    const r = rig(async (opts) => {
      const yes = await opts.confirmSession!({
        id: 's1',
        sessionWorkspace: '/elsewhere',
        workspace: '/here',
      });
      expect(yes).toBe(true);
      throw new Error('the history folder vanished');
    });
    await waitFor(() => r.stdout.text().includes('/elsewhere'), 'the confirm screen');
    r.stdin.write('y');
    await expect(r.run).rejects.toThrow('the history folder vanished');
    expect(count(r.stdout.text(), LEAVE_ALT_SCREEN)).toBe(1);
    expect(r.stdin.rawMode).toBe(false);
    for (const event of [...SIGNAL_EVENTS, 'exit']) expect(r.proc.listenerCount(event)).toBe(0);
  });
});
