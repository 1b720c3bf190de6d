/**
 * /detach in the in-process screen: a turn in flight is finished first (and the screen says
 * so), then the app closes and the background agent is started for the same folder; idle,
 * Ctrl+D hands over at once.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { whenTurnDone } from '../../components/handOver.js';
import { runTui, type TuiApp } from '../../components/runTui.js';
import type { StartFlags } from '../../src/daemon/commandArgs.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { waitFor } from '../helpers/waitForFrame.js';

describe('/detach in the in-process screen', () => {
  test('waits for the turn in flight, says so, then hands over', async () => {
    const c = createFakeController({ machine: 'THINKING', streaming: true });
    let went = 0;
    whenTurnDone(c, 'en', () => void went++);
    expect(went).toBe(0);
    expect(c.store.getState().notices.map((n) => n.text)).toContain(
      'finishing the turn in flight, then handing over to a background agent…',
    );
    c.store.setState({ streaming: false });
    await waitFor(() => went === 1, 'the hand-over after the turn');
    c.store.setState({ streaming: true });
    c.store.setState({ streaming: false });
    expect(went).toBe(1);
  });

  test('Ctrl+D when idle closes the app, then starts the background agent there', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const log: { stream: 'stdout' | 'stderr'; data: string }[] = [];
    const stdin = new FakeStdin({ isTTY: true });
    const stdout = new FakeStdout(log, { isTTY: true });
    const stderr = new FakeStderr(log);
    let closed = 0;
    const started: StartFlags[] = [];
    let closedWhenStarted = -1;
    const app: TuiApp = {
      agent: c,
      config: { workspace: '/work/notes', language: 'en' },
      warnings: [],
      close: async () => void closed++,
    };
    const run = runTui(NO_FLAGS, {
      createApp: async () => ({ ok: true, app }),
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WritableStream,
      env: {},
      proc: new EventEmitter(),
      startBackground: async (flags, io) => {
        closedWhenStarted = closed;
        started.push(flags);
        io.stdout.write('Cogito runs in the background in /work/notes (pid 1).\n');
        return 0;
      },
    });
    await waitFor(
      () => stdin.listenerCount('readable') > 0 && stdout.text().includes('Your turn'),
      'the screen to be up',
    );
    stdin.write('\x04');
    expect(await run).toBe(0);
    // The app (and its folder lock) was closed before the background agent started.
    expect(closedWhenStarted).toBe(1);
    expect(started).toMatchObject([{ workspace: '/work/notes' }]);
    expect(stdout.text()).toContain('Handing the session over to a background agent');
    expect(stdout.text()).toContain('Cogito runs in the background in /work/notes');
  });
});
