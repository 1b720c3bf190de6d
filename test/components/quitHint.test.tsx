/**
 * Quitting says how to come back: after the screen is restored, the session's id and the
 * commands that resume it (`cogito --session ID`, `cogito -c`). The real app under runTui.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runTui } from '../../components/runTui.js';
import { LEAVE_ALT_SCREEN } from '../../components/terminal/terminalGuard.js';
import { createApp } from '../../src/app/createApp.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitFor } from '../helpers/waitForFrame.js';

describe('quitting', () => {
  let server: ScriptedServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  test('prints how to resume the session, after the screen is back', async () => {
    server = await startScriptedServer();
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-quit-home-'));
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-quit-ws-'));
    dirs.push(home, ws);
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    const log: { stream: 'stdout' | 'stderr'; data: string }[] = [];
    const stdin = new FakeStdin();
    const stdout = new FakeStdout(log);
    let sessionId = '';
    const run = runTui(NO_FLAGS, {
      createApp: async (opts) => {
        const made = await createApp({
          ...opts,
          flags: { home, workspace: ws, paused: true },
          env,
        });
        if (made.ok) sessionId = made.app.currentSessionId();
        return made;
      },
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new FakeStderr(log) as unknown as NodeJS.WritableStream,
      env: {},
      proc: new EventEmitter(),
    });
    await waitFor(() => stdout.text().includes('Paused'), 'the screen to be up');
    stdin.write('\x03');
    expect(await run).toBe(0);
    expect(sessionId).not.toBe('');
    const leave = log.findIndex((l) => l.data.includes(LEAVE_ALT_SCREEN));
    const hint = log.findIndex((l) => l.stream === 'stderr' && l.data.includes('is saved'));
    expect(hint, JSON.stringify(log.filter((l) => l.stream === 'stderr'))).toBeGreaterThan(leave);
    expect(log[hint]!.data).toBe(
      `Session ${sessionId} is saved. To go on with it: cogito --session ${sessionId} (or cogito -c: the latest session in this folder)\n`,
    );
  });
});
