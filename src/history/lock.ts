import fs from 'node:fs';
import path from 'node:path';
import { errorCode, errorMessage } from './fsPort.js';

/** The lock file's name inside the home folder. */
export const LOCK_FILE = 'cogito.lock';

export type HomeLock = { ok: true; release(): void } | { ok: false; message: string };

/** Lock files this process holds, so a lock naming our own pid can be told from a stale one. */
const held = new Set<string>();

/**
 * Makes sure only one Cogito uses `home` at a time (two writers would interleave one history).
 * Creates `<home>/cogito.lock` exclusively, holding this process's pid. A lock left by a
 * process that no longer exists is stale and taken over. The lock is released by `release()`
 * or when the process exits.
 */
export function acquireHomeLock(home: string): HomeLock {
  const file = path.join(home, LOCK_FILE);
  if (held.has(file)) {
    return { ok: false, message: `This process already holds the lock on ${home}.` };
  }
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (err) {
    return { ok: false, message: cannotLock(home, file, err) };
  }
  // Two tries: the second follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      createExclusive(file, `${process.pid}\n`);
      return { ok: true, release: holdUntilExit(file) };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') return { ok: false, message: cannotLock(home, file, err) };
    }
    const content = readOrEmpty(file);
    const pid = Number.parseInt(content, 10);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
      return {
        ok: false,
        message:
          `Another Cogito (pid ${pid}) is using the home ${home}. Close it first, or start this ` +
          `one with a different home: cogito --home DIR (or COGITO_HOME=DIR).`,
      };
    }
    // Stale (dead pid, or a pid that is ours but not held: a previous process in a container
    // often gets the same pid). Remove it only if it is still the file we judged, which narrows
    // the race with another process doing the same to a moment.
    if (readOrEmpty(file) !== content) continue;
    try {
      fs.unlinkSync(file);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') return { ok: false, message: cannotLock(home, file, err) };
    }
  }
  return {
    ok: false,
    message: `Could not take the lock ${file}: another process keeps creating it. Try again.`,
  };
}

/**
 * Creates `file` with `content` in one step: written to a private temporary file, then
 * hard-linked into place (link fails if the name exists). So the lock never exists empty, and a
 * competitor never reads a half-written pid. Falls back to `wx` where links are unsupported.
 */
function createExclusive(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, content, { mode: 0o644 });
    fs.linkSync(tmp, file);
  } catch (err) {
    const code = errorCode(err);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    fs.writeFileSync(file, content, { flag: 'wx', mode: 0o644 });
  } finally {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Already gone, or never created.
    }
  }
}

function holdUntilExit(file: string): () => void {
  held.add(file);
  const release = (): void => {
    if (!held.delete(file)) return;
    process.removeListener('exit', release);
    // Remove only our own lock: never one another process took over meanwhile.
    if (readOrEmpty(file).trim() !== String(process.pid)) return;
    try {
      fs.unlinkSync(file);
    } catch {
      // Gone already; a leftover lock is recovered as stale next time anyway.
    }
  };
  process.on('exit', release);
  return release;
}

/** Whether a process with `pid` exists (EPERM: it exists but belongs to another user). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // Ours but not in `held`: left by a previous process.
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function cannotLock(home: string, file: string, err: unknown): string {
  return (
    `Cannot create the lock ${file}: ${errorMessage(err)}. Check that ${home} exists and is ` +
    `writable, or use a different home with --home DIR.`
  );
}
