/**
 * The workspace's state before and after a command, for undo: every file, folder and link
 * with its size, times and inode, and each file's content hash. A file whose size, times and
 * inode are what the last look saw keeps the hash it had, so only what changed is read again.
 * Before a command runs, every file's content is put in the session's backup store (content
 * addressed: a file already there costs nothing), within the store's size cap; so whatever
 * the command then changes or deletes can be put back.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { TRASH_DIR } from '../tools/files/common.js';
import type { Journal } from './journal.js';
import { hashBytes, hashFile, type TreeNode } from './snapshot.js';

/** One entry of the workspace: its tree node and what tells it has not changed. */
interface Seen {
  node: TreeNode;
  /** `size:mtime:ctime:ino` of a file; absent for folders and links. */
  stamp?: string;
}

/** The workspace by relative path (POSIX separators). */
export type WorkspaceState = Map<string, Seen>;

/** Folders never looked into: version control (read-only in the sandbox) and the trash. */
const SKIPPED = new Set(['.git', '.hg', '.svn', TRASH_DIR]);
/** Entries looked at most; a bigger workspace is covered only in part (and says so). */
export const MAX_ENTRIES = 50_000;

/** Reads the workspace at `root`, reusing hashes from `prev` for files that did not change. */
export async function readWorkspace(
  root: string,
  prev: WorkspaceState | undefined,
  skip: (abs: string) => boolean = () => false,
): Promise<{ state: WorkspaceState; complete: boolean }> {
  const state: WorkspaceState = new Map();
  let complete = true;
  const walk = async (dir: string, rel: string): Promise<void> => {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return;
    }
    names.sort();
    for (const name of names) {
      if (state.size >= MAX_ENTRIES) {
        complete = false;
        return;
      }
      if (rel === '' && SKIPPED.has(name)) continue;
      const abs = path.join(dir, name);
      if (skip(abs)) continue;
      const sub = rel === '' ? name : `${rel}/${name}`;
      const st = await fsp.lstat(abs).catch(() => undefined);
      if (!st) continue;
      if (st.isSymbolicLink()) {
        state.set(sub, { node: { k: 'l', t: await fsp.readlink(abs).catch(() => '') } });
      } else if (st.isDirectory()) {
        state.set(sub, { node: { k: 'd', m: st.mode & 0o7777 } });
        await walk(abs, sub);
      } else if (st.isFile()) {
        const stamp = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
        const old = prev?.get(sub);
        const h =
          old?.stamp === stamp && old.node.k === 'f'
            ? old.node.h
            : await hashFile(abs, st.size).catch(() => undefined);
        if (h === undefined) continue;
        state.set(sub, { node: { k: 'f', h, m: st.mode & 0o7777, s: st.size }, stamp });
      }
    }
  };
  await walk(root, '');
  return { state, complete };
}

/**
 * Puts the content of every file in `state` into the journal's backup store, within its
 * caps (`undo.maxFileBytes` per file, `undo.maxBytes` in all). Returns the hashes stored
 * (or already there): a file whose hash is not in it cannot be put back.
 */
export async function backUpState(
  root: string,
  state: WorkspaceState,
  journal: Journal,
): Promise<Set<string>> {
  const kept = new Set<string>();
  for (const [rel, { node }] of state) {
    if (node.k !== 'f') continue;
    if (journal.blobs.has(node.h)) {
      kept.add(node.h);
      continue;
    }
    if (node.s > journal.limits.maxFileBytes) continue;
    if ((await journal.makeRoom(node.s, kept)) === false) continue;
    try {
      const data = await fsp.readFile(path.join(root, ...rel.split('/')));
      if (hashBytes(data) !== node.h) continue; // changed since it was hashed
      await journal.blobs.putBytes(node.h, data);
      kept.add(node.h);
    } catch {
      // Gone or unreadable since it was hashed: not covered by undo.
    }
  }
  return kept;
}
