/**
 * How undo and crash rollback reach a path the journal names: resolved for write exactly as
 * a file tool's write is (containment, Cogito's fenced files, protected places such as
 * `.git` or a shell start-up file), then reached folder by folder from the workspace root
 * without following any symlink. The journal records where a change really landed (real
 * folders, see `wrap.ts`), so a symlink on the path now is something planted since, a
 * folder swapped after a crash: it is refused, never written through. On Linux every step
 * opens the next folder through the handle of the one before (`/proc/self/fd/N/name`), so
 * a swap while undo runs cannot move where it lands either. The final name is never
 * followed: a file is restored by renaming over it, so a symlink there is replaced, not
 * written through.
 */
import { constants, existsSync } from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { TRASH_DIR } from '../tools/files/common.js';
import type { Workspace } from '../tools/workspace.js';
import { badRelPath } from './recordCheck.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Folders can be named through their handle (Linux): the race-free mode. */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
/** Windows cannot open a folder as a handle: there each step is checked with lstat. */
const DIR_HANDLES = process.platform !== 'win32';

/** A journal path reached safely: its entry named through its verified folder. */
export interface Place {
  readonly rel: string;
  /** The entry itself, addressed through its pinned folder. */
  readonly at: string;
  /** Another name in the same pinned folder (a temporary file beside the entry). */
  sibling(name: string): string;
  close(): Promise<void>;
}

export type PlaceResult =
  | { ok: true; place: Place }
  /** `missing`: a folder on the path is gone, so there is nothing there to act on. */
  | { ok: false; missing: boolean; message: string };

export interface PlaceOptions {
  /** Make missing folders on the path (putting a file back where its folder is gone). */
  makeParents?: boolean;
  /**
   * The place is the trash or an entry in it: only ever taken out (undoing a delete), or
   * the trash folder removed when the delete made it.
   */
  trash?: boolean;
}

/** Opens the journal path `rel` for a write (see the module comment). Never throws for a bad path. */
export type OpenPlace = (rel: string, opts?: PlaceOptions) => Promise<PlaceResult>;

/** The place opener of `ws`. */
export function placesIn(ws: Workspace): OpenPlace {
  return (rel, opts = {}) => openPlace(ws, rel, opts);
}

const refused = (message: string): PlaceResult => ({ ok: false, missing: false, message });

async function openPlace(ws: Workspace, rel: string, opts: PlaceOptions): Promise<PlaceResult> {
  const shown = JSON.stringify(rel);
  const bad = badRelPath(rel);
  if (bad !== undefined) return refused(`${bad}; nothing was done there`);
  const parts = rel.split('/');
  if (opts.trash === true) {
    if (parts.length > 2 || parts[0] !== TRASH_DIR) {
      return refused(`${shown} is not an entry of ${TRASH_DIR}/; nothing was taken from there`);
    }
  }
  const r = await ws.resolve(rel, { access: opts.trash === true ? 'read' : 'write' });
  if (!r.ok) return refused(r.error.message);
  if (r.path.protection) {
    return refused(
      `${shown} is ${r.path.protection.what}: undo never writes there, since no one is asked first. Restore it by hand if you want the old content back.`,
    );
  }
  const name = parts.pop()!;
  let dir = await pinRoot(ws.root);
  try {
    for (const [i, seg] of parts.entries()) {
      const step = await stepInto(dir, seg, opts.makeParents === true);
      const sofar = JSON.stringify(parts.slice(0, i + 1).join('/'));
      if (step === 'missing') {
        await dir.close();
        return { ok: false, missing: true, message: `${shown}: the folder ${sofar} is gone` };
      }
      if (step === 'not_a_folder') {
        await dir.close();
        return refused(
          `${sofar} on the path of ${shown} is now a symlink or a file, not the folder the journal recorded; nothing was written through it`,
        );
      }
      await dir.close();
      dir = step;
    }
    const expected = path.join(ws.root, ...parts);
    if ((await dir.location()) !== expected) {
      await dir.close();
      return refused(`the folder of ${shown} moved while it was opened; nothing was done there`);
    }
  } catch (e) {
    await dir.close();
    throw e;
  }
  const pinned = dir;
  return {
    ok: true,
    place: {
      rel,
      at: pinned.child(name),
      sibling: (n) => pinned.child(n),
      close: () => pinned.close(),
    },
  };
}

/** A folder held open (or, on Windows, checked by path). */
interface Pin {
  child(name: string): string;
  /** Where the held folder really is now (its checked path where that cannot be asked). */
  location(): Promise<string>;
  close(): Promise<void>;
}

async function pinRoot(root: string): Promise<Pin> {
  if (!DIR_HANDLES) return pathPin(root);
  return handlePin(await fsp.open(root, constants.O_RDONLY | O_DIRECTORY), root);
}

function handlePin(handle: FileHandle, abs: string): Pin {
  return {
    child: (name) => (PROC_FD ? `/proc/self/fd/${handle.fd}/${name}` : path.join(abs, name)),
    location: async () => (PROC_FD ? fsp.readlink(`/proc/self/fd/${handle.fd}`) : abs),
    close: () => handle.close().catch(() => undefined),
  };
}

function pathPin(abs: string): Pin {
  return { child: (n) => path.join(abs, n), location: async () => abs, close: async () => {} };
}

/** Opens the folder `seg` inside `dir` without following a symlink there. */
async function stepInto(
  dir: Pin,
  seg: string,
  make: boolean,
): Promise<Pin | 'missing' | 'not_a_folder'> {
  const next = dir.child(seg);
  const abs = path.join(await dir.location(), seg);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      if (!DIR_HANDLES) {
        const st = await fsp.lstat(next);
        return st.isDirectory() ? pathPin(abs) : 'not_a_folder';
      }
      const flags = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
      return handlePin(await fsp.open(next, flags), abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') return 'not_a_folder';
      if (code !== 'ENOENT') throw e;
      if (!make || attempt > 0) return 'missing';
      await fsp.mkdir(next).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    }
  }
  return 'missing';
}

/**
 * Puts the backup at `blob` back at `place` with the mode bits `mode` (only the 0o777 bits:
 * undo never sets setuid or setgid). The backup must still hash to `hash` (the store is
 * data too: a blob swapped since it was stored is refused, with `EBADBACKUP`). Written to a
 * new file beside the place, then renamed over: the mode is set on that new file's own
 * handle, and a symlink at the place is replaced, never written through.
 */
export async function restoreFile(
  place: Place,
  blob: string,
  hash: string,
  mode: number,
): Promise<void> {
  const data = await fsp.readFile(blob);
  if (createHash('sha256').update(data).digest('hex') !== hash) {
    const message = `the backup of ${JSON.stringify(place.rel)} no longer matches its hash, so it was not restored`;
    throw Object.assign(new Error(message), { code: 'EBADBACKUP' });
  }
  const base = path.posix.basename(place.rel);
  const tmp = place.sibling(`.${base}.${randomBytes(4).toString('hex')}.undo`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
  const out = await fsp.open(tmp, flags, 0o600);
  try {
    await out.writeFile(data);
    await out.chmod(mode & 0o777);
  } catch (e) {
    await out.close();
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await out.close();
  await fsp.rename(tmp, place.at);
}

/** True when something (a symlink included) is at the place. */
export async function isPresent(place: Place): Promise<boolean> {
  return fsp.lstat(place.at).then(
    () => true,
    () => false,
  );
}

/** Opens `rel`, runs `use` with it, closes it; a refusal is pushed to `problems`. */
export async function withPlace<T>(
  open: OpenPlace,
  rel: string,
  problems: string[],
  use: (place: Place) => Promise<T>,
  opts: PlaceOptions = {},
): Promise<T | undefined> {
  const r = await open(rel, opts);
  if (!r.ok) {
    if (!r.missing) problems.push(r.message);
    return undefined;
  }
  try {
    return await use(r.place);
  } finally {
    await r.place.close();
  }
}
