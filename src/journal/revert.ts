/**
 * Runs one change backwards on disk: puts back the old content (from the backup store) with
 * its mode bits, moves a moved thing back, brings a deleted thing back from the trash,
 * removes what a copy made and the folders the change created. Paths go through the
 * workspace resolver again, so an undo can never write outside the workspace.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from './blobStore.js';
import type { ChangeEntry } from './journal.js';

/** Turns a workspace-relative path into an absolute one, or says why it cannot. */
export type ResolveRel = (
  rel: string,
) => Promise<{ ok: true; abs: string } | { ok: false; message: string }>;

/** What reverting one change did not manage; empty when all went back. */
export type RevertProblems = string[];

/**
 * Reverts `entry`. With `force`, the paths are made to hold their old content whatever is
 * there now; without it, the caller has checked (see `planUndo`) that nothing changed since.
 */
export async function revertEntry(
  entry: ChangeEntry,
  resolve: ResolveRel,
  blobs: BlobStore,
  force: boolean,
): Promise<RevertProblems> {
  const problems: string[] = [];
  const abs = async (rel: string): Promise<string | undefined> => {
    const r = await resolve(rel);
    if (!r.ok) problems.push(`${rel}: ${r.message}`);
    return r.ok ? r.abs : undefined;
  };
  const [first, second] = entry.paths;
  switch (entry.op) {
    case 'write':
      if (first)
        await restoreWrite(first.path, first.before, await abs(first.path), blobs, problems);
      break;
    case 'copy': {
      const dst = first && (await abs(first.path));
      if (dst) await fsp.rm(dst, { recursive: true, force: true });
      break;
    }
    case 'move':
    case 'delete': {
      // move: paths are [destination, source]; delete: [deleted path, trash place].
      const [from, to] = entry.op === 'move' ? [first, second] : [second, first];
      if (from && to)
        await moveBack(await abs(from.path), await abs(to.path), force, problems, to.path);
      break;
    }
    case 'mkdir':
      break;
  }
  for (const dir of entry.made) {
    const d = await abs(dir);
    if (!d) continue;
    try {
      await fsp.rmdir(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      problems.push(`${dir}/: not removed (${code === 'ENOTEMPTY' ? 'not empty' : String(code)})`);
    }
  }
  return problems;
}

async function restoreWrite(
  rel: string,
  before: ChangeEntry['paths'][number]['before'],
  abs: string | undefined,
  blobs: BlobStore,
  problems: string[],
): Promise<void> {
  if (!abs) return;
  const node = before[''];
  if (node === undefined) {
    await fsp.rm(abs, { force: true });
    return;
  }
  if (node.k !== 'f') return;
  if (!blobs.has(node.h)) {
    problems.push(`${rel}: no backup of its old content is left`);
    return;
  }
  // Same folder, then rename: a crash mid-undo leaves the old or the new file, never half.
  const tmp = path.join(
    path.dirname(abs),
    `.${path.basename(abs)}.${randomBytes(4).toString('hex')}.undo`,
  );
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  await fsp.copyFile(blobs.pathOf(node.h), tmp);
  await fsp.chmod(tmp, node.m);
  await fsp.rename(tmp, abs);
}

async function moveBack(
  from: string | undefined,
  to: string | undefined,
  force: boolean,
  problems: string[],
  toRel: string,
): Promise<void> {
  if (!from || !to) return;
  const present = await fsp.lstat(from).then(
    () => true,
    () => false,
  );
  if (!present) {
    problems.push(`${toRel}: cannot be put back, what the change left is gone`);
    return;
  }
  if (force) await fsp.rm(to, { recursive: true, force: true });
  await fsp.mkdir(path.dirname(to), { recursive: true });
  await fsp.rename(from, to);
}
