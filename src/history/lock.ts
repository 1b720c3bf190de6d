import { LOCK_FILE } from '../config/paths.js';
import { identify, processStartToken } from '../core/processIdentity.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorCode, errorMessage, realFs } from './fsPort.js';
import { keepAside } from '../core/keepAside.js';

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

/**
 * Lock files this process holds, so a lock naming our own pid can be told from a stale one
 * (a few: the session's and the home's; each leaves when released).
 */
const held = new Set<string>();

/**
 * What the lock code found and repaired (a damaged lock kept aside), for the caller to show;
 * taken with {@link takeLockNotices}.
 */
const notices: string[] = [];

/** The notices about damaged locks since the last call (each shown once). */
export function takeLockNotices(): string[] {
  return notices.splice(0);
}

/**
 * A lock that is not as Cogito wrote it: a folder, content that is not a lock at all, or a
 * lock cut short or with bytes after its last line (a lock is linked into place whole, every
 * line ended, so neither comes from Cogito). Empty is not damage: nothing is lost by it.
 */
function damaged(file: string, content: string): boolean {
  if (isFolder(file)) return true;
  if (content === '') return false;
  return !parseHolder(content) || !content.endsWith('\n') || /[\0\uFFFD]/.test(content);
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Words for a live holder of a lock. */
type Describe = (holder: Holder, workspace: string) => string;

const defaultDescribe: Describe = (h, w) => `Another Cogito (pid ${h.pid}) is working in ${w}.`;

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
  describe: Describe = defaultDescribe,
  env: NodeJS.ProcessEnv = process.env,
): FolderLock {
  const own = acquireLockFile(folderLockFile(home, workspace), home, workspace, kind, describe);
  if (!own.ok) return own;
  // The home's lock only sees Cogitos of this home: the folder's lock in the user's shared
  // place stops a second one started with another --home.
  const shared = sharedLock(workspace, kind, describe, env);
  if (shared.ok) {
    return {
      ok: true,
      file: own.file,
      release: () => {
        shared.release();
        own.release();
      },
    };
  }
  if (shared.holder) {
    own.release();
    return { ...shared, message: `${shared.message} (It runs with another app home, --home.)` };
  }
  // The shared place cannot be used (a planted folder, no space): the home's lock still holds.
  return own;
}

/**
 * The folder's lock shared by every home of this user: `$XDG_RUNTIME_DIR/cogito/locks/`, else
 * `<tmp>/cogito-<uid>/locks/`, named by a hash of the folder's real path. A Cogito started
 * with a different environment (another TMPDIR, no XDG_RUNTIME_DIR) may look elsewhere; the
 * home's own lock is kept for that and for older Cogitos.
 */
export function sharedLockFile(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 24);
  const runtime = env.XDG_RUNTIME_DIR;
  const base = runtime
    ? path.join(runtime, 'cogito')
    : path.join(os.tmpdir(), `cogito-${process.getuid?.() ?? 'user'}`);
  return path.join(base, 'locks', `${key}.lock`);
}

function sharedLock(
  workspace: string,
  kind: LockKind,
  describe: Describe,
  env: NodeJS.ProcessEnv,
): FolderLock {
  const file = sharedLockFile(workspace, env);
  try {
    privateDir(path.dirname(path.dirname(file)));
    privateDir(path.dirname(file));
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
  return acquireLockFile(file, path.dirname(file), workspace, kind, describe);
}

/**
 * Makes `dir` (0700) and checks it is this user's own folder, not a symlink: a shared /tmp
 * lets another user create `cogito-<uid>` first and plant lock files in it.
 */
function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(`${dir} is not a folder of this user (owner uid ${st.uid})`);
  }
}

/**
 * The start lock of `workspace`: held by a `cogito start` from its check for a running agent
 * until that agent answers (or fails), so four starts at once run one after the other and
 * each later one finds the agent the first one started.
 */
export function startLockFile(home: string, workspace: string): string {
  return folderLockFile(home, workspace).replace(/\.lock$/, '.start');
}

/** Takes the start lock (see {@link startLockFile}); busy while another live start holds it. */
export function acquireStartLock(home: string, workspace: string): FolderLock {
  return acquireLockFile(startLockFile(home, workspace), home, workspace, 'background');
}

/** Takes the lock `file` as {@link acquireFolderLock} does (exclusive, stale ones taken over). */
function acquireLockFile(
  file: string,
  home: string,
  workspace: string,
  kind: LockKind,
  describe: Describe = defaultDescribe,
): FolderLock {
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
    if (damaged(file, found)) {
      // Junk or a folder where the lock belongs (never a half-written lock: it is linked
      // into place whole): kept aside as <name>.corrupt-<time>.lock for a look, then replaced.
      try {
        const aside = keepAside(realFs, file);
        notices.push(`The folder lock ${file} was damaged; it was kept as ${aside} and replaced.`);
      } catch (err) {
        return { ok: false, message: cannotLock(home, file, err) };
      }
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
export function folderLockHolder(
  home: string,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): Holder | undefined {
  for (const file of [folderLockFile(home, workspace), sharedLockFile(workspace, env)]) {
    const holder = parseHolder(readOrEmpty(file));
    if (holder && isAlive(holder)) return holder;
  }
  return undefined;
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
