/**
 * Print mode's root, in process: the app and the run stop through one disposer stack
 * however the run ends, `/exit` ends it through the root's exit, and a failed start-up
 * leaves no lock and no signal listener behind.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { main } from '../../src/cli/main.js';
import { runPrintMode, type PrintRun } from '../../src/cli/printMode.js';
import { folderLockFile } from '../../src/history/lock.js';
import { useAppDirs } from '../helpers/appDirs.js';
import type { ScriptedServer } from '../helpers/scriptedServer.js';

function sink(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

describe('print mode as a root', () => {
  const dirs = useAppDirs('cogito-print');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ server, ws, home, env } = dirs));

  const signals = (): number[] =>
    ['SIGINT', 'SIGTERM'].map((s) => process.listenerCount(s as NodeJS.Signals));

  it('-p /exit ends with code 0, releases the lock and its signal listeners', async () => {
    const before = signals();
    const out = sink();
    const err = sink();
    const code = await main({
      argv: ['-p', '/exit', '--workspace', ws, '--home', home],
      env,
      stdout: out.stream,
      stderr: err.stream,
    });
    expect(code).toBe(0);
    expect(err.text()).not.toContain('could not stop');
    expect(existsSync(folderLockFile(home, realpathSync(ws)))).toBe(false);
    expect(signals()).toEqual(before);
    expect(server.requests).toHaveLength(0);
  });

  it('a start-up step that fails: its message, exit code 2, no lock and no listener left', async () => {
    const before = signals();
    await mkdir(path.join(home, 'data'), { recursive: true });
    await writeFile(path.join(home, 'data', 'undo'), 'not a folder');
    const err = sink();
    const code = await main({
      argv: ['-p', 'hello', '--workspace', ws, '--home', home],
      env,
      stdout: sink().stream,
      stderr: err.stream,
    });
    expect(code).toBe(2);
    expect(err.text()).toMatch(/^Cannot open the change journal: /);
    expect(existsSync(folderLockFile(home, realpathSync(ws)))).toBe(false);
    expect(signals()).toEqual(before);
  });

  it("the root's exit ends a run with the reason exit", async () => {
    let run: PrintRun | undefined;
    const made = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
      background: false,
      exit: () => run?.exit(),
    });
    if (!made.ok) throw new Error(made.message);
    try {
      // A reply that does not wait: only the exit can end the run before the cycle limit.
      server.push({ kind: 'stream', content: 'still thinking' });
      run = runPrintMode(made.app.agent, {
        prompt: 'hello',
        json: true,
        maxCycles: 50,
        out: sink().stream,
        err: sink().stream,
      });
      await server.waitForRequest(0);
      made.app.agent.send({ type: 'command', text: '/exit' });
      expect(await run.done).toMatchObject({ reason: 'exit', exitCode: 0 });
    } finally {
      await made.app.close();
    }
  });
});
