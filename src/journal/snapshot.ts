/**
 * What a path looked like at one moment, flattened: every file, folder and link under it,
 * keyed by its path relative to the snapshot's root (`''` is the root itself). An absent
 * path is the empty tree. Files are identified by content hash and mode bits, so comparing
 * two snapshots says whether anything changed, byte for byte.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** One entry of a tree: a file (content hash, mode bits, size), a folder or a symlink. */
export type TreeNode =
  | { readonly k: 'f'; readonly h: string; readonly m: number; readonly s: number }
  | { readonly k: 'd'; readonly m: number }
  | { readonly k: 'l'; readonly t: string };

/** A flattened tree: relative sub-path (POSIX separators, `''` for the root) → node. */
export type FlatTree = Readonly<Record<string, TreeNode>>;

/** Called for each regular file met, so its content can be backed up while it is read. */
export type OnFile = (abs: string, node: TreeNode & { k: 'f' }) => Promise<void>;

/** Files up to this size are read in one go; larger ones are streamed. */
const READ_WHOLE_BYTES = 16 * 1024 * 1024;

/** SHA-256 of a file's bytes; a large file is streamed so it never sits whole in memory. */
export async function hashFile(abs: string, size = Infinity): Promise<string> {
  if (size <= READ_WHOLE_BYTES) return hashBytes(await fsp.readFile(abs));
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(abs, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** SHA-256 of bytes in memory. */
export function hashBytes(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Reads the tree at `abs` without following symlinks. A missing path gives `{}`.
 * @param onFile optional hook called for every regular file (used to store backups).
 */
export async function readTree(abs: string, onFile?: OnFile): Promise<FlatTree> {
  const out: Record<string, TreeNode> = {};
  await walk(abs, '', out, onFile);
  return out;
}

async function walk(
  abs: string,
  rel: string,
  out: Record<string, TreeNode>,
  onFile: OnFile | undefined,
): Promise<void> {
  let st;
  try {
    st = await fsp.lstat(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (st.isSymbolicLink()) {
    out[rel] = { k: 'l', t: await fsp.readlink(abs) };
  } else if (st.isDirectory()) {
    out[rel] = { k: 'd', m: st.mode & 0o7777 };
    const names = await fsp.readdir(abs);
    names.sort();
    for (const name of names) {
      await walk(path.join(abs, name), rel === '' ? name : `${rel}/${name}`, out, onFile);
    }
  } else if (st.isFile()) {
    const node = {
      k: 'f' as const,
      h: await hashFile(abs, st.size),
      m: st.mode & 0o7777,
      s: st.size,
    };
    out[rel] = node;
    if (onFile) await onFile(abs, node);
  }
  // Sockets, FIFOs and devices are not content the agent makes; they are left out.
}

/** Two nodes are the same when kind, content and mode match (folders compare by kind). */
export function sameNode(a: TreeNode | undefined, b: TreeNode | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.k !== b.k) return false;
  if (a.k === 'f' && b.k === 'f') return a.h === b.h && a.m === b.m;
  if (a.k === 'l' && b.k === 'l') return a.t === b.t;
  return true;
}

/** How `actual` differs from `expected`: sub-paths modified, missing or added. */
export interface TreeDiff {
  modified: string[];
  missing: string[];
  added: string[];
}

/** Compares two trees; an empty diff means they are the same. */
export function diffTrees(expected: FlatTree, actual: FlatTree): TreeDiff {
  const diff: TreeDiff = { modified: [], missing: [], added: [] };
  for (const [k, node] of Object.entries(expected)) {
    const other = actual[k];
    if (other === undefined) diff.missing.push(k);
    else if (!sameNode(node, other)) diff.modified.push(k);
  }
  for (const k of Object.keys(actual)) if (expected[k] === undefined) diff.added.push(k);
  return diff;
}

/** True when the diff found nothing. */
export function isSame(diff: TreeDiff): boolean {
  return diff.modified.length + diff.missing.length + diff.added.length === 0;
}

/** Total bytes of the files in a tree. */
export function treeBytes(tree: FlatTree): number {
  let n = 0;
  for (const node of Object.values(tree)) if (node.k === 'f') n += node.s;
  return n;
}

/** True when both trees hold exactly the same nodes. */
export function sameTree(a: FlatTree, b: FlatTree): boolean {
  return isSame(diffTrees(a, b));
}
