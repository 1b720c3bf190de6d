import { LOCK_FILE } from '../config/paths.js';
import { identify, processStartToken } from '../core/processIdentity.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorCode, errorMessage } from './fsPort.js';

export { LOCK_FILE };

/** The folder of per-folder locks, inside the home's data folder (git-ignored, fenced). */
export const LOCKS_DIR = path.join('data', 'locks');

/**
 * What kind of Cogito holds a folder: the full-screen app, a background agent (`cogito
 * start`) or a print-mode run (`-p`). Written in the lock file, so a second Cogito can say
 * how to reach or stop the holder, and print mode can run beside a background agent.
 */
export type LockKind = 'screen' | 'background' | 'print';

const KINDS: readonly LockKind[] = ['screen', 'background', 'print'];

type FolderLock =
  { ok: true; file: string; release(): void } | { ok: false; message: string; holder?: Holder };

/** Who holds a lock, as its file says (a lock from before kinds were written: no kind). */
export interface Holder {
  pid: number;
  since?: string;
  kind?: LockKind;
  /** The holder's start token: a pid whose token differs is a stranger, the lock stale. */
  startToken?: string;
}

/** Lock files this process holds, so a lock naming our own pid can be told from a stale one. */
const held = new Set<string>();

/**
 * The lock file of the workspace whose real path is `workspace`: named by a hash of that
 * path, so every folder has its own and any path (long, non-ASCII) makes a valid name.
 */
export function folderLockFile(home: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 24);
  return path.join(home, LOCKS_DIR, `${key}.lock`);
}

/**
 * Makes sure only one Cogito works in a folder at a time (two would write the same files and
 * continue the same session); Cogitos on different folders share the home side by side.
 * Creates the folder's lock file exclusively, holding this process's pid, the start time, the
 * folder, the kind and the process's start token. A lock left by a process that no longer
 * exists is stale and taken over, and so is one whose pid now names a process with another
 * start token (the holder died and the kernel gave its pid to a stranger). The lock is
 * released by `release()` or when the process exits.
 */
export function acquireFolderLock(
  home: string,
  workspace: string,
  kind: LockKind = 'screen',
  /** Words for a live holder (app/busyMessage.ts puts them in the user's language). */
  describe: (holder: Holder, workspace: string) => string = (h, w) =>
    `Another Cogito (pid ${h.pid}) is working in ${w}.`,
): FolderLock {
  const file = folderLockFile(home, workspace);
  if (held.has(file)) {
    return { ok: false, message: `This process already holds the lock on ${workspace}.` };
  }
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  } catch (err) {
    return { ok: false, message: cannotLock(home, file, err) };
  }
  const token = processStartToken(process.pid) ?? '';
  const content = `${process.pid}\n${new Date().toISOString()}\n${workspace}\n${kind}\n${token}\n`;
  // Two tries: the second follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      createExclusive(file, content);
      return { ok: true, file, release: holdUntilExit(file) };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') return { ok: false, message: cannotLock(home, file, err) };
    }
    const found = readOrEmpty(file);
    const holder = parseHolder(found);
    if (holder && isAlive(holder)) {
      return { ok: false, message: describe(holder, workspace), holder };
    }
    // Stale (dead pid, or a pid that is ours but not held: a previous process in a container
    // often gets the same pid). Remove it only if it is still the file we judged, which narrows
    // the race with another process doing the same to a moment.
    if (readOrEmpty(file) !== found) continue;
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
 * Who holds `workspace`'s lock now, if a live process does (the one that wrote it, by its
 * start token); `undefined` when nobody does or the lock is stale.
 */
export function folderLockHolder(home: string, workspace: string): Holder | undefined {
  const holder = parseHolder(readOrEmpty(folderLockFile(home, workspace)));
  return holder && isAlive(holder) ? holder : undefined;
}

/** The holder's pid, start time, kind and token; `undefined` for junk (an empty or cut file). */
function parseHolder(content: string): Holder | undefined {
  const [pidLine = '', since, , kindLine, token] = content.split('\n');
  const pid = Number.parseInt(pidLine, 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const kind = KINDS.find((k) => k === kindLine);
  return {
    pid,
    ...(since ? { since } : {}),
    ...(kind ? { kind } : {}),
    ...(token ? { startToken: token } : {}),
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
    if (parseHolder(readOrEmpty(file))?.pid !== process.pid) return;
    try {
      fs.unlinkSync(file);
    } catch {
      // Gone already; a leftover lock is recovered as stale next time anyway.
    }
  };
  process.on('exit', release);
  return release;
}

/**
 * Whether the lock's holder runs: the process that wrote it, by its start token (a lock from
 * before tokens were written trusts the pid). Our own pid, not in `held`, was left by a
 * previous process.
 */
function isAlive(holder: Holder): boolean {
  return holder.pid !== process.pid && identify(holder.pid, holder.startToken) !== 'gone';
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
