/**
 * Issue #40: a write of the reminders or the cycle ledger that fails (disk full, permission
 * denied, read-only; injected through the file-system port) leaves the last good file in
 * place, says so on stderr in -p with a non-zero exit, and the agent pauses with the reason
 * instead of carrying on as if saved (a tool chain stops at the step that failed). The real
 * core (main() for -p) on real files, against the scripted server.
 */
import fs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { main } from '../../src/cli/main.js';
import type { HistoryFs } from '../../src/core/fsPort.js';
import { useAppDirs } from '../helpers/appDirs.js';
import type { ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

function sink(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

/** `node:fs`, except that writes to files whose path `hit` matches fail with `code` while on. */
function diskThatFails(
  code: string,
  hit: (file: string) => boolean,
): { fs: HistoryFs; full: { on: boolean } } {
  const full = { on: false };
  const open = new Set<number>();
  const fail = (fd: unknown): void => {
    if (full.on && typeof fd === 'number' && open.has(fd))
      throw Object.assign(new Error(`${code}: simulated, write`), { code });
  };
  const faulty: HistoryFs = {
    ...fs,
    openSync: ((file: fs.PathLike, ...rest: unknown[]) => {
      const fd = (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
      if (hit(String(file))) open.add(fd);
      else open.delete(fd);
      return fd;
    }) as HistoryFs['openSync'],
    writeSync: ((fd: number, ...rest: unknown[]) => {
      fail(fd);
      return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as HistoryFs['writeSync'],
    writeFileSync: ((target: unknown, ...rest: unknown[]) => {
      fail(target);
      (fs.writeFileSync as (...a: unknown[]) => void)(target, ...rest);
    }) as HistoryFs['writeFileSync'],
  };
  return { fs: faulty, full };
}

async function ledgerOf(home: string): Promise<string> {
  const sessions = path.join(home, 'data', 'sessions');
  const [id] = await readdir(sessions);
  return readFile(path.join(sessions, id!, 'ledger.jsonl'), 'utf8');
}

async function remindersOf(home: string): Promise<string> {
  const dir = path.join(home, 'data', 'reminders');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  expect(names).toHaveLength(1);
  return readFile(path.join(dir, names[0]!), 'utf8');
}

const CODES = ['ENOSPC', 'EACCES', 'EROFS'];

describe('a state file that cannot be written pauses the agent', () => {
  const dirs = useAppDirs('cogito-wfail');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ server, ws, home, env } = dirs));

  const run = async (
    disk: HistoryFs,
    ...argv: string[]
  ): Promise<{ code: number; out: string; err: string }> => {
    const out = sink();
    const err = sink();
    const args = ['--workspace', ws, '--home', home, '--think-interval', '0'];
    const code = await main({
      argv: [...argv, ...args],
      env,
      stdout: out.stream,
      stderr: err.stream,
      fs: disk,
    });
    return { code, out: out.text(), err: err.text() };
  };

  it.each(CODES)(
    'the ledger, -p, %s: the last good ledger stays, stderr says why, paused, exit not 0',
    async (errno) => {
      const disk = diskThatFails(errno, (f) => f.endsWith('ledger.jsonl'));
      server.push({ kind: 'stream', content: 'First answer. [WAIT]' });
      const first = await run(disk.fs, '-p', 'first');
      expect(first.code, first.err).toBe(0);
      const before = await ledgerOf(home);
      expect(before).toContain('First answer.');

      disk.full.on = true;
      server.push({ kind: 'stream', content: 'Second answer. [WAIT]' });
      const second = await run(disk.fs, '-c', '-p', 'second');
      expect(second.code, second.err).not.toBe(0);
      expect(second.err).toContain('the cycle ledger could not be written');
      expect(second.err).toContain(errno);
      expect(second.err).toMatch(/paused/);
      // The last good state: byte for byte what the first run saved.
      expect(await ledgerOf(home)).toBe(before);
    },
  );

  it.each(CODES)(
    'the reminders, -p, %s: the saved ones stay, the chain stops at the failed save, exit not 0',
    async (errno) => {
      const disk = diskThatFails(errno, (f) => f.includes(`${path.sep}reminders${path.sep}`));
      server.push(
        { kind: 'stream', content: 'Noted.\n[TOOL] remind("1d", "water the plants") [/TOOL]' },
        { kind: 'stream', content: 'Saved it. [WAIT]' },
      );
      const first = await run(disk.fs, '-p', 'remind me to water the plants tomorrow');
      expect(first.code, first.err).toBe(0);
      const before = await remindersOf(home);
      expect(before).toContain('water the plants');

      disk.full.on = true;
      server.push(
        { kind: 'stream', content: 'Noted.\n[TOOL] remind("2d", "call the bank") [/TOOL]' },
        { kind: 'stream', content: 'Saved that too. [WAIT]' },
      );
      const asked = server.requests.length;
      const second = await run(disk.fs, '-c', '-p', 'and to call the bank');
      expect(second.code, second.err).not.toBe(0);
      expect(second.err).toContain('reminders could not be saved');
      expect(second.err).toContain(errno);
      expect(second.err).toMatch(/paused/);
      // It did not carry on as if saved: no request after the step whose save failed.
      expect(server.requests.length - asked).toBe(1);
      expect(second.out).not.toContain('Saved that too.');
      expect(await remindersOf(home)).toBe(before);
    },
  );

  it('an agent run: the ledger fails as a turn ends, the agent pauses with the reason', async () => {
    const disk = diskThatFails('ENOSPC', (f) => f.endsWith('ledger.jsonl'));
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
      disk.full.on = true;
      server.push({ kind: 'stream', content: 'Hello there. [WAIT]' });
      app.agent.send({ type: 'submit', text: 'hi' });
      const paused = await waitForStore(
        app.agent.store,
        (s) => s.machine === 'PAUSED' && s.pauseReason !== undefined,
        'the agent to pause with a reason',
        15_000,
      );
      expect(paused.pauseReason).toMatch(/^paused: the cycle ledger could not be written/);
      expect(paused.pauseReason).toContain('ENOSPC');
      expect(paused.pauseReason).toContain('Free disk space');
    } finally {
      await app.close();
    }
  });
});
