/**
 * Plans an undo before touching anything: replays the chosen changes backwards over a model
 * of the disk, checking at each step that the paths hold what the agent left there. Any
 * difference is a change made by someone else since (the user), and is reported by path;
 * a backup that is gone (size cap, too large) is reported too. Only a clean plan is run
 * without `--force`.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ChangeEntry } from './journal.js';
import type { BlobStore } from './blobStore.js';
import { diffTrees, readTree, type FlatTree, type TreeNode } from './snapshot.js';

/** A path whose content is not what the agent left there. */
export interface Conflict {
  path: string;
  what: 'modified' | 'missing' | 'added';
}

/** What an undo would do and what stands in its way. */
export interface UndoPlan {
  /** Changes to revert, newest first. */
  entries: readonly ChangeEntry[];
  conflicts: Conflict[];
  /** Paths whose old content has no backup (too large, or evicted by the size cap). */
  noBackup: string[];
}

/** Builds the plan for reverting `entries` (newest first) in the workspace at `root`. */
export async function planUndo(
  entries: readonly ChangeEntry[],
  root: string,
  blobs: BlobStore,
  evicted: ReadonlySet<string>,
): Promise<UndoPlan> {
  const world = await loadWorld(entries, root);
  const conflicts = new Map<string, Conflict['what']>();
  const noBackup: string[] = [];
  for (const entry of entries) {
    for (const p of entry.paths) {
      const diff = diffTrees(p.after ?? {}, subtree(world, p.path));
      for (const what of ['modified', 'missing', 'added'] as const) {
        for (const sub of diff[what]) conflicts.set(join(p.path, sub), what);
      }
      if (entry.op === 'write' && !restorable(p.before, p.backup, blobs, evicted)) {
        noBackup.push(p.path);
      }
      replace(world, p.path, p.before);
    }
    for (const dir of entry.made) {
      const now = subtree(world, dir);
      if (now[''] === undefined) conflicts.set(dir, 'missing');
      for (const sub of Object.keys(now)) if (sub !== '') conflicts.set(join(dir, sub), 'added');
      replace(world, dir, {});
    }
  }
  return {
    entries,
    conflicts: [...conflicts].map(([p, what]) => ({ path: p, what })),
    noBackup,
  };
}

function restorable(
  before: FlatTree,
  backedUp: boolean,
  blobs: BlobStore,
  evicted: ReadonlySet<string>,
): boolean {
  for (const node of Object.values(before)) {
    if (node.k !== 'f') continue;
    if (!backedUp || evicted.has(node.h) || !blobs.has(node.h)) return false;
  }
  return true;
}

/** The disk as a flat map of workspace-relative paths, read once under every path involved. */
async function loadWorld(
  entries: readonly ChangeEntry[],
  root: string,
): Promise<Map<string, TreeNode>> {
  const all = new Set<string>();
  for (const e of entries) {
    for (const p of e.paths) all.add(p.path);
    for (const d of e.made) all.add(d);
  }
  const roots = [...all].sort();
  const kept: string[] = [];
  for (const r of roots) if (!kept.some((k) => r === k || r.startsWith(`${k}/`))) kept.push(r);
  const world = new Map<string, TreeNode>();
  for (const r of kept) {
    const tree = await readRecorded(root, r);
    for (const [sub, node] of Object.entries(tree)) world.set(join(r, sub), node);
  }
  return world;
}

/**
 * The tree at the journal path `rel`, read the way undo will reach it: through real folders
 * only. When a folder on the way is now a symlink or a file (planted since the change), the
 * path reads as that odd entry, so the plan reports it instead of reading through the link.
 */
async function readRecorded(root: string, rel: string): Promise<FlatTree> {
  const parts = rel.split('/');
  let abs = root;
  for (const [i, seg] of parts.slice(0, -1).entries()) {
    abs = path.join(abs, seg);
    const st = await fsp.lstat(abs).catch(() => undefined);
    if (st === undefined) return {};
    if (!st.isDirectory()) {
      const on = parts.slice(0, i + 1).join('/');
      return { '': { k: 'l', t: `${on} is no longer a folder` } };
    }
  }
  return readTree(path.join(abs, parts[parts.length - 1]!));
}

function join(base: string, sub: string): string {
  return sub === '' ? base : `${base}/${sub}`;
}

function subtree(world: ReadonlyMap<string, TreeNode>, at: string): Record<string, TreeNode> {
  const out: Record<string, TreeNode> = {};
  for (const [k, node] of world) {
    if (k === at) out[''] = node;
    else if (k.startsWith(`${at}/`)) out[k.slice(at.length + 1)] = node;
  }
  return out;
}

function replace(world: Map<string, TreeNode>, at: string, tree: FlatTree): void {
  for (const k of [...world.keys()]) if (k === at || k.startsWith(`${at}/`)) world.delete(k);
  for (const [sub, node] of Object.entries(tree)) world.set(join(at, sub), node);
}
