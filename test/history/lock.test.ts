import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processStartToken } from '../../src/core/processIdentity.js';
import { acquireFolderLock, folderLockFile, LOCKS_DIR } from '../../src/history/lock.js';
import { busyMessage, localSince } from '../../src/app/busyMessage.js';
import { waitUntil } from '../helpers/waitFor.js';
import { makeTmpDir } from './tmpDir.js';

/** The pid of a process that has exited (a child we started and waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start a child process');
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

describe('folder lock', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  /** The app home. */
  let home: string;
  /** The workspace the lock is about (its real path); it need not exist for the lock. */
  let ws: string;
  let lockFile: string;
  const lock = (): ReturnType<typeof acquireFolderLock> =>
    acquireFolderLock(home, ws, 'screen', busyMessage);
  beforeEach(() => {
    tmp = makeTmpDir();
    home = tmp.dir;
    ws = path.join(tmp.dir, 'project');
    lockFile = folderLockFile(home, ws);
  });
  afterEach(() => tmp.cleanup());

  it('takes a free folder, writes its pid, start time and folder, and releases it', () => {
    const before = Date.now();
    const taken = lock();
    expect(taken.ok).toBe(true);
    expect(path.dirname(lockFile)).toBe(path.join(home, LOCKS_DIR));
    const [pid, since, folder] = fs.readFileSync(lockFile, 'utf8').split('\n');
    expect(pid).toBe(String(process.pid));
    expect(Date.parse(since!)).toBeGreaterThanOrEqual(before - 1000);
    expect(folder).toBe(ws);
    // No temporary file left.
    expect(fs.readdirSync(path.dirname(lockFile))).toEqual([path.basename(lockFile)]);
    if (taken.ok) taken.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    const again = lock();
    expect(again.ok).toBe(true);
    if (again.ok) again.release();
  });

  it('locks each folder apart: another folder in the same home is free', () => {
    const first = lock();
    const other = acquireFolderLock(home, path.join(tmp.dir, 'elsewhere'));
    expect(first.ok).toBe(true);
    expect(other.ok).toBe(true);
    expect(first.ok && other.ok && first.file !== other.file).toBe(true);
    if (first.ok) first.release();
    if (other.ok) other.release();
  });

  it('refuses a folder held by a live process, naming its pid, since when and how to stop it', () => {
    const livePid = process.ppid; // The test runner: alive, and not us.
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    const held = `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\n`;
    fs.writeFileSync(lockFile, held);
    const taken = lock();
    expect(taken.ok).toBe(false);
    if (taken.ok) return;
    expect(taken.message).toBe(
      `Another Cogito (pid ${livePid}, running since ${localSince('2026-12-01T09:30:00.000Z')}) is working in ` +
        `${ws}. Quit that one first (/exit or Ctrl+C in its window, or: kill ${livePid}), or ` +
        'start this one in another folder (cd there, or cogito --workspace DIR).',
    );
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(held); // Untouched.
  });

  it('a folder an open screen holds names Ctrl+D (leave it to the background) and cogito send', () => {
    const livePid = process.ppid;
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\nscreen\n`);
    const taken = lock();
    expect(taken.ok).toBe(false);
    if (taken.ok) return;
    expect(taken.message).toContain(`A Cogito screen (pid ${livePid}`);
    expect(taken.message).toContain('press Ctrl+D there');
    expect(taken.message).toContain('cogito send');
  });

  it('writes its kind, and tells of a background or -p holder how to reach or stop it', () => {
    const taken = acquireFolderLock(home, ws, 'background', busyMessage);
    expect(taken.ok).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').split('\n')[3]).toBe('background');
    if (taken.ok) taken.release();
    const livePid = process.ppid;
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\nbackground\n`);
    const bg = lock();
    expect(bg.ok).toBe(false);
    if (bg.ok) return;
    expect(bg.holder).toEqual({
      pid: livePid,
      since: '2026-12-01T09:30:00.000Z',
      kind: 'background',
    });
    expect(bg.message).toContain(`A background Cogito (pid ${livePid}, running since`);
    expect(bg.message).toContain(`cogito stop --workspace ${JSON.stringify(ws)}`);
    expect(bg.message).toContain('Open its screen with cogito');
    expect(bg.message).not.toContain('in its window');
    fs.writeFileSync(lockFile, `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\nprint\n`);
    const print = lock();
    expect(print.ok).toBe(false);
    if (print.ok) return;
    expect(print.holder?.kind).toBe('print');
    expect(print.message).toContain(`A cogito -p run (pid ${livePid}`);
    expect(print.message).toContain(`kill ${livePid}`);
    expect(print.message).not.toContain('in its window');
  });

  it('refuses a second lock on the same folder in the same process', () => {
    const first = lock();
    const second = lock();
    expect(second).toEqual({
      ok: false,
      message: `This process already holds the lock on ${ws}.`,
    });
    if (first.ok) first.release();
  });

  it('writes its start token; a live pid with another token is a stranger: the lock is stale', () => {
    const livePid = process.ppid; // The test runner: alive, and not us.
    const token = processStartToken(livePid);
    if (token === undefined) return; // No start times on this system: nothing to tell apart.
    const taken = lock();
    expect(taken.ok).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').split('\n')[4]).toBe(processStartToken(process.pid));
    if (taken.ok) taken.release();

    // The holder died and its pid went to another process: the token no longer matches.
    fs.writeFileSync(
      lockFile,
      `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\nbackground\n${token}0\n`,
    );
    const over = lock();
    expect(over.ok).toBe(true);
    if (over.ok) over.release();

    // The same process still holds it: busy.
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(
      lockFile,
      `${livePid}\n2026-12-01T09:30:00.000Z\n${ws}\nbackground\n${token}\n`,
    );
    const busy = lock();
    expect(busy.ok).toBe(false);
    if (!busy.ok) expect(busy.message).toContain(`A background Cogito (pid ${livePid}`);
  });

  it('recovers a stale lock left by a dead process, or holding junk', async () => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, `${await deadPid()}\n`);
    const taken = lock();
    expect(taken.ok).toBe(true);
    expect(fs.readFileSync(lockFile, 'utf8').split('\n')[0]).toBe(String(process.pid));
    if (taken.ok) taken.release();

    fs.writeFileSync(lockFile, '');
    const fromEmpty = lock();
    expect(fromEmpty.ok).toBe(true);
    if (fromEmpty.ok) fromEmpty.release();
  });

  it.runIf(process.platform === 'linux')(
    'recovers a lock whose holder was killed but not reaped (a zombie: its parent never waits)',
    async () => {
      // `sh` starts a child that waits for one byte on stdin, then becomes `sleep`, which
      // never reaps it. The byte is sent once `sleep` runs, so `sh` cannot reap it first.
      // The pipe goes to the child as fd 3: a non-interactive sh gives a background job
      // /dev/null for stdin, so `0<&0` handed it an end of file, it exited at once, and the
      // sh could reap it before its exec (the test then timed out under load).
      const script = 'exec 3<&0; head -c1 0<&3 3<&- >/dev/null & echo $!; exec sleep 60 3<&-';
      const parent = spawn('sh', ['-c', script], { stdio: ['pipe', 'pipe', 'ignore'] });
      try {
        let out = '';
        parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
        const zombie = await waitUntil(() => Number.parseInt(out, 10) || undefined, 'its pid');
        const read = (file: string): string => {
          try {
            return fs.readFileSync(file, 'utf8');
          } catch {
            return '';
          }
        };
        await waitUntil(() => read(`/proc/${parent.pid}/comm`) === 'sleep\n', 'the exec');
        parent.stdin.write('x');
        const state = (): string => {
          const stat = read(`/proc/${zombie}/stat`);
          return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        };
        await waitUntil(() => state() === 'Z', 'the child to be a zombie');
        // kill(pid, 0) still succeeds on it: only its state tells it is gone.
        expect(() => process.kill(zombie, 0)).not.toThrow();
        fs.mkdirSync(path.dirname(lockFile), { recursive: true });
        fs.writeFileSync(lockFile, `${zombie}\n2026-12-01T00:00:00.000Z\n${ws}\nbackground\n`);
        const taken = lock();
        expect(taken.ok).toBe(true);
        if (taken.ok) taken.release();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('treats its own pid in a lock it does not hold as stale (pid reuse after a restart)', () => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, `${process.pid}\n`);
    const taken = lock();
    expect(taken.ok).toBe(true);
    if (taken.ok) taken.release();
  });

  it('does not remove a lock that another process took over', () => {
    const taken = lock();
    fs.writeFileSync(lockFile, `${process.ppid}\n`);
    if (taken.ok) taken.release();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('creates a missing home, and explains a home it cannot create', () => {
    const nested = path.join(tmp.dir, 'a', 'b');
    const taken = acquireFolderLock(nested, ws);
    expect(taken.ok).toBe(true);
    if (taken.ok) taken.release();
    const blocked = path.join(tmp.dir, 'file');
    fs.writeFileSync(blocked, 'x');
    const bad = acquireFolderLock(path.join(blocked, 'home'), ws);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain('or use a different home with --home DIR');
  });

  it('is released when the process exits', async () => {
    const script = `
      const { acquireFolderLock } = await import(${JSON.stringify(
        fileURLToPath(new URL('../../src/history/lock.ts', import.meta.url)),
      )});
      const lock = acquireFolderLock(process.argv[1], process.argv[2]);
      process.stdout.write(lock.ok ? 'locked' : lock.message);
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, home, ws],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toBe('locked');
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
