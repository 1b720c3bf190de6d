import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireHomeLock } from '../../src/history/lock.js';
import { makeTmpDir } from './tmpDir.js';

/** The pid of a process that has exited (a child we started and waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start a child process');
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

describe('home lock', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let lockFile: string;
  beforeEach(() => {
    tmp = makeTmpDir();
    lockFile = path.join(tmp.dir, 'cogito.lock');
  });
  afterEach(() => tmp.cleanup());

  it('takes a free home, writes its pid, and releases it', () => {
    const lock = acquireHomeLock(tmp.dir);
    expect(lock.ok).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    expect(fs.readdirSync(tmp.dir)).toEqual(['cogito.lock']); // No temporary file left.
    if (lock.ok) lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    const again = acquireHomeLock(tmp.dir);
    expect(again.ok).toBe(true);
    if (again.ok) again.release();
  });

  it('refuses a home held by a live process, naming its pid and --home', () => {
    const livePid = process.ppid; // The test runner: alive, and not us.
    fs.writeFileSync(lockFile, `${livePid}\n`);
    const lock = acquireHomeLock(tmp.dir);
    expect(lock.ok).toBe(false);
    if (lock.ok) return;
    expect(lock.message).toContain(`Another Cogito (pid ${livePid}) is using the home ${tmp.dir}`);
    expect(lock.message).toContain('--home DIR');
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(`${livePid}\n`); // Untouched.
  });

  it('refuses a second lock in the same process', () => {
    const first = acquireHomeLock(tmp.dir);
    const second = acquireHomeLock(tmp.dir);
    expect(second).toEqual({
      ok: false,
      message: `This process already holds the lock on ${tmp.dir}.`,
    });
    if (first.ok) first.release();
  });

  it('recovers a stale lock left by a dead process, or holding junk', async () => {
    fs.writeFileSync(lockFile, `${await deadPid()}\n`);
    const lock = acquireHomeLock(tmp.dir);
    expect(lock.ok).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    if (lock.ok) lock.release();

    fs.writeFileSync(lockFile, '');
    const fromEmpty = acquireHomeLock(tmp.dir);
    expect(fromEmpty.ok).toBe(true);
    if (fromEmpty.ok) fromEmpty.release();
  });

  it('treats its own pid in a lock it does not hold as stale (pid reuse after a restart)', () => {
    fs.writeFileSync(lockFile, `${process.pid}\n`);
    const lock = acquireHomeLock(tmp.dir);
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
  });

  it('does not remove a lock that another process took over', () => {
    const lock = acquireHomeLock(tmp.dir);
    fs.writeFileSync(lockFile, `${process.ppid}\n`);
    if (lock.ok) lock.release();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('creates a missing home, and explains a home it cannot create', () => {
    const nested = path.join(tmp.dir, 'a', 'b');
    const lock = acquireHomeLock(nested);
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
    const blocked = path.join(tmp.dir, 'file');
    fs.writeFileSync(blocked, 'x');
    const bad = acquireHomeLock(path.join(blocked, 'home'));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('or use a different home with --home DIR');
  });

  it('is released when the process exits', async () => {
    const script = `
      const { acquireHomeLock } = await import(${JSON.stringify(
        fileURLToPath(new URL('../../src/history/lock.ts', import.meta.url)),
      )});
      const lock = acquireHomeLock(process.argv[1]);
      process.stdout.write(lock.ok ? 'locked' : lock.message);
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, tmp.dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toBe('locked');
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
