/**
 * Runs one change backwards on disk: puts back the old content (from the backup store) with
 * its mode bits, moves a moved thing back, brings a deleted thing back from the trash,
 * removes what a copy made and the folders the change created. Every path is opened through
 * `place.ts`: resolved for write like a tool's write, reached without following a symlink,
 * so an undo never writes outside the workspace, into `.git`, or through a link planted
 * since the change.
 */
import fsp from 'node:fs/promises';
import { TRASH_DIR } from '../tools/files/common.js';
import type { BlobStore } from './blobStore.js';
import type { ChangeEntry } from './journal.js';
import { isPresent, restoreFile, withPlace, type OpenPlace, type Place } from './place.js';

/** What reverting one change did not manage; empty when all went back. */
export type RevertProblems = string[];

/**
 * Reverts `entry`. With `force`, the paths are made to hold their old content whatever is
 * there now; without it, the caller has checked (see `planUndo`) that nothing changed since.
 */
export async function revertEntry(
  entry: ChangeEntry,
  open: OpenPlace,
  blobs: BlobStore,
  force: boolean,
): Promise<RevertProblems> {
  const problems: string[] = [];
  const [first, second] = entry.paths;
  switch (entry.op) {
    case 'write':
      if (first) await restoreWrite(entry, open, blobs, problems);
      break;
    case 'copy':
      if (first) {
        await withPlace(open, first.path, problems, (p) =>
          fsp.rm(p.at, { recursive: true, force: true }),
        );
      }
      break;
    case 'move':
    case 'delete': {
      // move: paths are [destination, source]; delete: [deleted path, trash place].
      const [from, to] = entry.op === 'move' ? [first, second] : [second, first];
      if (from && to) await moveBack(open, from.path, to.path, entry.op, force, problems);
      break;
    }
    case 'mkdir':
      break;
  }
  for (const dir of entry.made) {
    const trash = dir === TRASH_DIR;
    await withPlace(
      open,
      dir,
      problems,
      async (p) => {
        try {
          await fsp.rmdir(p.at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') return;
          const why = code === 'ENOTEMPTY' ? 'not empty' : String(code);
          problems.push(`${dir}/: not removed (${why})`);
        }
      },
      { trash },
    );
  }
  return problems;
}

async function restoreWrite(
  entry: ChangeEntry,
  open: OpenPlace,
  blobs: BlobStore,
  problems: string[],
): Promise<void> {
  const { path: rel, before } = entry.paths[0]!;
  const node = before[''];
  if (node === undefined) {
    await withPlace(open, rel, problems, (p) => fsp.rm(p.at, { force: true }));
    return;
  }
  if (node.k !== 'f') return;
  if (!blobs.has(node.h)) {
    problems.push(`${rel}: no backup of its old content is left`);
    return;
  }
  // Beside it, then rename: a crash mid-undo leaves the old or the new file, never half.
  const put = (p: Place): Promise<void> => restoreFile(p, blobs.pathOf(node.h), node.h, node.m);
  await withPlace(open, rel, problems, put, { makeParents: true });
}

async function moveBack(
  open: OpenPlace,
  fromRel: string,
  toRel: string,
  op: 'move' | 'delete',
  force: boolean,
  problems: string[],
): Promise<void> {
  const gone = `${toRel}: cannot be put back, what the change left is gone`;
  const from = await open(fromRel, { trash: op === 'delete' });
  if (!from.ok) {
    problems.push(from.missing ? gone : from.message);
    return;
  }
  try {
    if (!(await isPresent(from.place))) {
      problems.push(gone);
      return;
    }
    const back = async (to: Place): Promise<void> => {
      if (force) await fsp.rm(to.at, { recursive: true, force: true });
      await fsp.rename(from.place.at, to.at);
    };
    await withPlace(open, toRel, problems, back, { makeParents: true });
  } finally {
    await from.place.close();
  }
}
