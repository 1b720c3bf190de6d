/**
 * File access without a check-then-use race. The resolver checks a path, but a folder on
 * it can be swapped for a symlink to outside before the tool opens it. So every open here
 * is checked again through what was opened:
 * - a file is opened without following a final symlink (O_NOFOLLOW), then the opened
 *   handle's real location (`/proc/self/fd/N` on Linux) must be inside the workspace;
 * - a folder is opened and checked the same way, and files are then created, renamed or
 *   made *through that handle* (`/proc/self/fd/N/name`, the kernel's openat by path), so a
 *   later swap of any folder above cannot move where they land.
 * Without `/proc` (macOS, Windows) the handle is compared with the checked path by device
 * and inode, which still catches a swap that happened before the open.
 */
import { constants, existsSync } from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Workspace } from '../workspace.js';
import { realpathLoose } from '../../core/realpath.js';

/** Thrown when what was opened is not where the check said it would be. */
class PathEscapeError extends Error {
  readonly code = 'ECOGITOESCAPE';
  constructor(
    readonly actual: string,
    readonly why: string,
  ) {
    super(`it now leads to ${actual} (${why})`);
  }
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Whether handles can be named by path (Linux): the race-free mode. */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
/** Windows cannot open a folder as a file handle: folders are checked by real path alone. */
const DIR_HANDLES = process.platform !== 'win32';

/** A folder opened and verified to lie inside the workspace. */
interface PinnedDir {
  /** Its real location when it was opened. */
  readonly real: string;
  /** A path naming `name` inside this very folder, whatever is swapped above it later. */
  child(name: string): string;
  close(): Promise<void>;
}

/** Where the open handle really is (Linux), or undefined when the platform cannot say. */
async function handleLocation(handle: FileHandle): Promise<string | undefined> {
  if (!PROC_FD) return undefined;
  return fsp.readlink(`/proc/self/fd/${handle.fd}`);
}

/**
 * Checks that `handle` (opened from `opened`) lies inside the workspace and, for writes,
 * not in a place no tool may change. Closes the handle and throws otherwise.
 */
async function verifyHandle(
  ws: Workspace,
  handle: FileHandle,
  opened: string,
  access: 'read' | 'write',
): Promise<string> {
  try {
    let actual = await handleLocation(handle);
    if (actual === undefined) {
      actual = await fsp.realpath(opened);
      const [a, b] = await Promise.all([handle.stat(), fsp.stat(actual)]);
      if (a.dev !== b.dev || a.ino !== b.ino) {
        throw new PathEscapeError(actual, 'it changed while it was being opened');
      }
    }
    const rel = ws.relativeOf(actual);
    if (rel === undefined) throw new PathEscapeError(actual, 'outside the workspace');
    if (ws.fencedBy(actual) !== undefined) throw new PathEscapeError(actual, 'a fenced-off file');
    if (access === 'write' && ws.protectionFor(rel, actual)?.level === 'never') {
      throw new PathEscapeError(actual, 'a protected place');
    }
    return actual;
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** Opens the folder at `abs` (symlinks followed) and verifies where it really is. */
async function pinDir(
  ws: Workspace,
  abs: string,
  access: 'read' | 'write' = 'read',
): Promise<PinnedDir> {
  const real = await fsp.realpath(abs);
  if (!DIR_HANDLES) return checkedByPath(ws, real, access);
  const handle = await fsp.open(real, constants.O_RDONLY | O_DIRECTORY);
  const actual = await verifyHandle(ws, handle, real, access);
  return {
    real: actual,
    child: (name) => (PROC_FD ? `/proc/self/fd/${handle.fd}/${name}` : path.join(actual, name)),
    close: () => handle.close(),
  };
}

/** A folder checked by its real path only (Windows), with no handle to hold. */
function checkedByPath(ws: Workspace, real: string, access: 'read' | 'write'): PinnedDir {
  const rel = ws.relativeOf(real);
  if (rel === undefined) throw new PathEscapeError(real, 'outside the workspace');
  if (access === 'write' && ws.protectionFor(rel, real)?.level === 'never') {
    throw new PathEscapeError(real, 'a protected place');
  }
  return { real, child: (name) => path.join(real, name), close: async () => undefined };
}

/**
 * Makes the folder `abs` and its missing parents one level at a time, each made through its
 * verified parent: a folder swapped for a symlink mid-way cannot make folders outside.
 * Returns the final folder pinned; the caller closes it.
 */
export async function mkdirInside(
  ws: Workspace,
  abs: string,
  access: 'read' | 'write' = 'write',
): Promise<PinnedDir> {
  const rel = ws.relativeOf(abs) ?? ws.relativeOf(path.resolve(abs));
  if (rel === undefined) throw new PathEscapeError(abs, 'outside the workspace');
  let dir = await pinDir(ws, ws.root, access);
  for (const segment of rel === '.' ? [] : rel.split('/')) {
    try {
      const next = dir.child(segment);
      try {
        await fsp.mkdir(next);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const pinned = await pinDir(ws, next, access);
      await dir.close();
      dir = pinned;
    } catch (e) {
      await dir.close().catch(() => undefined);
      throw e;
    }
  }
  return dir;
}

/**
 * Reads a whole file without following a final symlink, then checks where the opened file
 * really is. A final symlink the resolver allowed is followed once, to its real path, which
 * is then opened the same way (a second swap there fails with ELOOP).
 */
export async function readInside(
  ws: Workspace,
  abs: string,
  opts: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<Buffer> {
  let handle: FileHandle;
  let opened = abs;
  try {
    handle = await fsp.open(abs, constants.O_RDONLY | O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOOP') throw e;
    opened = await fsp.realpath(abs);
    handle = await fsp.open(opened, constants.O_RDONLY | O_NOFOLLOW);
  }
  await verifyHandle(ws, handle, opened, 'read');
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
      throw Object.assign(new Error(`grew past ${opts.maxBytes} bytes`), { code: 'EFBIG' });
    }
    return await handle.readFile(opts.signal ? { signal: opts.signal } : {});
  } finally {
    await handle.close();
  }
}

/** How {@link writeInside} writes. */
interface WriteOptions {
  /** Permission bits to give the file (a copy keeps its source's); default: keep the old file's. */
  mode?: number;
  /** Fail with EEXIST instead of replacing a file that is already there (copy never overwrites). */
  exclusive?: boolean;
}

/**
 * Writes a whole file atomically (temp file + rename, both inside the verified folder),
 * making parent folders as needed. An existing file keeps its permission bits.
 */
export async function writeInside(
  ws: Workspace,
  abs: string,
  data: string | Uint8Array,
  opts: WriteOptions = {},
): Promise<void> {
  const target = await followFinalLink(ws, abs);
  const dir = await mkdirInside(ws, path.dirname(target));
  const name = path.basename(target);
  const tmp = dir.child(`.${name}.${randomBytes(6).toString('hex')}.cogito-tmp`);
  try {
    const keep = opts.mode ?? (await existingMode(dir.child(name)));
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
    const handle = await fsp.open(tmp, flags, 0o666);
    try {
      await handle.writeFile(data);
      if (keep !== undefined) await handle.chmod(keep);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (opts.exclusive === true) {
      // link(2) never replaces what is there: the no-overwrite rule holds even if a file
      // appeared after the tool checked.
      await fsp.link(tmp, dir.child(name));
      await fsp.rm(tmp, { force: true });
    } else {
      await fsp.rename(tmp, dir.child(name));
    }
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  } finally {
    await dir.close();
  }
}

/**
 * Where a write to `abs` should land: `abs` itself, or, when it is a symlink the resolver
 * allowed, the file it points to (an edit through a link changes the file, not the link).
 */
async function followFinalLink(ws: Workspace, abs: string): Promise<string> {
  const st = await fsp.lstat(abs).catch(() => undefined);
  if (st?.isSymbolicLink() !== true) return abs;
  const real = await realpathLoose(abs);
  if (ws.relativeOf(real) === undefined) throw new PathEscapeError(real, 'outside the workspace');
  return real;
}

/** The permission bits of a regular file at `p` (not following a symlink), if one is there. */
async function existingMode(p: string): Promise<number | undefined> {
  try {
    const st = await fsp.lstat(p);
    return st.isFile() ? st.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Renames `src` to `dst`, each addressed through its verified folder; the destination's
 * parents are made. Neither end follows a final symlink (rename never does). `dstAccess`
 * is `read` only for delete, whose destination is the trash that other writes may not touch.
 */
export async function renameInside(
  ws: Workspace,
  src: string,
  dst: string,
  dstAccess: 'read' | 'write' = 'write',
): Promise<void> {
  const from = await pinDir(ws, path.dirname(src), 'write');
  try {
    const to = await mkdirInside(ws, path.dirname(dst), dstAccess);
    try {
      await fsp.rename(from.child(path.basename(src)), to.child(path.basename(dst)));
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

/**
 * Copies `src` (a file or a folder) to the new path `dst`. The source is taken through its
 * verified folder and the copy lands in the verified destination folder; symlinks inside
 * are copied as links, never followed.
 */
export async function copyInside(ws: Workspace, src: string, dst: string): Promise<void> {
  const from = await pinDir(ws, path.dirname(src));
  try {
    const source = from.child(path.basename(src));
    const st = await fsp.lstat(source);
    if (st.isFile()) {
      const data = await readInside(ws, source);
      await writeInside(ws, dst, data, { mode: st.mode & 0o7777, exclusive: true });
      return;
    }
    const to = await mkdirInside(ws, path.dirname(dst));
    try {
      await fsp.cp(source, to.child(path.basename(dst)), {
        recursive: true,
        force: false,
        errorOnExist: true,
        verbatimSymlinks: true,
      });
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
