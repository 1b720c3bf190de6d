/**
 * Issue #40: a write that fails (a full disk, injected through the file-system port on the
 * history's append) leaves the last good state in place, says so (stderr in -p, the agent's
 * state and notices on a screen or background agent), and the agent pauses with the reason
 * instead of carrying on as if saved. The real core (main() for -p, createApp for an agent
 * run) on real files, against the scripted server.
 */
import fs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { main } from '../../src/cli/main.js';
import type { HistoryFs } from '../../src/history/fsPort.js';
import { useAppDirs } from '../helpers/appDirs.js';
import type { ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

function sink(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

/** `node:fs`, except that writes to a history file fail with `code` while `full.on`. */
function diskThatFills(code: string): { fs: HistoryFs; full: { on: boolean } } {
  const full = { on: false };
  const histories = new Set<number>();
  const faulty: HistoryFs = {
    ...fs,
    openSync: ((file: fs.PathLike, ...rest: unknown[]) => {
      const fd = (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
      if (String(file).endsWith('history.jsonl')) histories.add(fd);
      return fd;
    }) as HistoryFs['openSync'],
    writeSync: ((fd: number, ...rest: unknown[]) => {
      if (full.on && histories.has(fd)) {
        throw Object.assign(new Error(`${code}: simulated, write`), { code });
      }
      return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as HistoryFs['writeSync'],
  };
  return { fs: faulty, full };
}

async function historyOf(home: string): Promise<{ file: string; text: string }> {
  const sessions = path.join(home, 'data', 'sessions');
  const [id] = await readdir(sessions);
  const file = path.join(sessions, id!, 'history.jsonl');
  return { file, text: await readFile(file, 'utf8') };
}

describe('a full disk under the history', () => {
  const dirs = useAppDirs('cogito-full');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ server, ws, home, env } = dirs));

  it.each([
    { code: 'ENOSPC', problem: 'The disk is full', fix: 'Free some disk space' },
    { code: 'EACCES', problem: 'Permission denied writing', fix: 'Check the permissions of' },
    { code: 'EROFS', problem: 'read-only file system', fix: 'Use --home DIR' },
  ])(
    '-p, $code: the last good history stays, stderr names the problem and the fix, exit is not 0',
    async ({ code: errno, problem, fix }) => {
      const disk = diskThatFills(errno);
      server.push({ kind: 'stream', content: 'First answer. [WAIT]' });
      const first = sink();
      const args = ['--workspace', ws, '--home', home, '--think-interval', '0'];
      const ok = await main({
        argv: ['-p', 'first', ...args],
        env,
        stdout: first.stream,
        stderr: sink().stream,
        fs: disk.fs,
      });
      expect(ok).toBe(0);
      const before = await historyOf(home);
      expect(before.text).toContain('First answer.');

      disk.full.on = true;
      server.push({ kind: 'stream', content: 'Second answer. [WAIT]' });
      const err = sink();
      const code = await main({
        argv: ['-c', '-p', 'second', ...args],
        env,
        stdout: sink().stream,
        stderr: err.stream,
        fs: disk.fs,
      });
      expect(code, err.text()).not.toBe(0);
      expect(err.text()).toContain(problem);
      expect(err.text()).toContain(path.dirname(before.file));
      expect(err.text()).toContain(fix);
      expect(err.text()).toMatch(/paused/);
      // The last good state: byte for byte what the first run saved.
      expect((await historyOf(home)).text).toBe(before.text);
    },
  );

  it('an agent run pauses with the reason instead of going on as if saved', async () => {
    const disk = diskThatFills('ENOSPC');
    server.setDefault({
      kind: 'stream',
      content: 'Working on it.\n[TOOL] list_files(".") [/TOOL]',
    });
    const made = await createApp({
      flags: { home, workspace: ws, thinkIntervalMs: 0 },
      env,
      initialState: 'AWAITING_INPUT',
      background: false,
      fs: disk.fs,
    });
    if (!made.ok) throw new Error(made.message);
    const { app } = made;
    try {
      // A first exchange is saved: the last good state.
      server.push({ kind: 'stream', content: 'Hello there. [WAIT]' });
      app.agent.send({ type: 'submit', text: 'hi' });
      const deadline = Date.now() + 15_000;
      while (!(await historyOf(home)).text.includes('Hello there.')) {
        if (Date.now() > deadline) throw new Error('the first reply was never saved');
        await new Promise((r) => setTimeout(r, 20));
      }
      await waitForStore(
        app.agent.store,
        (s) => s.machine !== 'THINKING',
        'the first turn to end',
        15_000,
      );
      const before = await historyOf(home);
      disk.full.on = true;
      const asked = server.requests.length;
      app.agent.send({ type: 'submit', text: 'keep going by yourself' });
      const paused = await waitForStore(
        app.agent.store,
        (s) => s.machine === 'PAUSED',
        'the agent to pause',
        15_000,
      );
      expect(paused.pauseReason).toMatch(/history could not be saved/);
      expect(paused.pauseReason).toContain('The disk is full');
      expect(paused.pauseReason).toContain('Free some disk space');
      // It stopped: no request after the one whose reply could not be saved.
      const sent = server.requests.length - asked;
      expect(sent).toBeLessThanOrEqual(1);
      await new Promise((r) => setImmediate(r));
      expect(server.requests.length - asked).toBe(sent);
      expect(app.agent.store.getState().machine).toBe('PAUSED');
      // The last good state is on disk, untouched.
      expect((await historyOf(home)).text).toBe(before.text);
    } finally {
      await app.close();
    }
  });
});
