/**
 * The backup taken before `create` or `edit` writes: only what the tool will really change,
 * one regular file, read through one handle opened without following a symlink. A folder
 * is refused before anything under it is read (`edit(".git", …)` reads nothing there). The
 * backup counts against `undo.maxBytes` before it is stored: room is made by removing the
 * oldest backups (and the result says so), and a file that cannot fit under the caps at all
 * is never stored: changing it is asked for first (see {@link backupNeed}) or refused.
 */
import { constants } from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { fail, type ToolArg, type ToolResult } from '../tools/types.js';
import { formatSize, q } from '../tools/files/common.js';
import type { Journal } from './journal.js';
import { t, type Lang } from '../i18n/messages.js';
import type { PathBefore } from './records.js';
import type { TreeNode } from './snapshot.js';

/** Files up to this size are read in one go; larger ones are streamed (twice). */
const READ_WHOLE_BYTES = 16 * 1024 * 1024;

/** Calls whose "no backup" was asked about before they ran (same args object). */
const askedWithoutBackup = new WeakSet<readonly ToolArg[]>();

/** A write target: its real absolute path and its journal path. */
export interface WriteTarget {
  abs: string;
  rel: string;
}

/** The largest file whose backup can be kept: under both caps. */
function backupLimit(journal: Journal): { bytes: number; name: string } {
  const { maxBytes, maxFileBytes } = journal.limits;
  return maxFileBytes <= maxBytes
    ? { bytes: maxFileBytes, name: 'undo.maxFileBytes' }
    : { bytes: maxBytes, name: 'undo.maxBytes' };
}

function tooLargeText(rel: string, size: number, journal: Journal, lang: Lang = 'en'): string {
  const limit = backupLimit(journal);
  return t(lang, 'reason.tooLargeToBackUp', {
    path: q(rel),
    size: formatSize(size),
    limit: limit.name,
    limitSize: formatSize(limit.bytes),
  });
}

/**
 * The reason to ask before a write whose old content cannot be backed up within the caps,
 * if there is one. Remembered for `args`, so the run that follows knows it was asked.
 */
export async function backupNeed(
  target: WriteTarget,
  args: readonly ToolArg[],
  journal: Journal,
  lang: Lang = 'en',
): Promise<string | undefined> {
  const st = await fsp.lstat(target.abs).catch(() => undefined);
  if (!st?.isFile() || st.size <= backupLimit(journal).bytes) return undefined;
  askedWithoutBackup.add(args);
  return tooLargeText(target.rel, st.size, journal, lang);
}

/** What backing up found: the journal entry of the path, or the result refusing the call. */
export type BackupOutcome = { before: PathBefore; notice?: string } | { refuse: ToolResult };

/**
 * Backs up the file at `target` before `tool` overwrites it; `keep` collects the hash
 * stored, so the size cap leaves it alone.
 */
export async function backUpForWrite(
  tool: string,
  target: WriteTarget,
  args: readonly ToolArg[],
  journal: Journal,
  keep: Set<string>,
): Promise<BackupOutcome> {
  const { rel } = target;
  const st = await fsp.lstat(target.abs).catch(() => undefined);
  if (!st) return { before: { path: rel, before: {}, backup: true } };
  if (st.isDirectory()) {
    const example = q(`${rel}/notes.md`);
    return {
      refuse: fail(
        'invalid_args',
        `${q(rel)} is a folder; ${tool} changes files. Name a file inside it, such as ${example}.`,
      ),
    };
  }
  if (st.isSymbolicLink()) {
    const link: TreeNode = { k: 'l', t: await fsp.readlink(target.abs) };
    return { before: { path: rel, before: { '': link }, backup: true } };
  }
  // A FIFO, socket or device holds no content the agent made: nothing to back up.
  if (!st.isFile()) return { before: { path: rel, before: {}, backup: true } };
  const handle = await fsp.open(target.abs, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const now = await handle.stat();
    if (!now.isFile() || now.ino !== st.ino) return { refuse: changedUnderfoot(tool, rel) };
    const size = now.size;
    const fits = size <= backupLimit(journal).bytes;
    if (!fits && !askedWithoutBackup.has(args)) {
      return {
        refuse: fail(
          'too_large',
          `${tooLargeText(rel, size, journal)} ${tool} did not run, since no one was asked first. Call it again to be asked.`,
        ),
      };
    }
    const { hash, data } = await hashHandle(handle, size);
    const node: TreeNode = { k: 'f', h: hash, m: now.mode & 0o7777, s: size };
    if (!fits) return { before: { path: rel, before: { '': node }, backup: false } };
    let notice: string | undefined;
    if (!journal.blobs.has(hash)) {
      const removed = await journal.makeRoom(size, keep);
      if (removed === false) {
        return {
          refuse: fail('too_large', `${tooLargeText(rel, size, journal)} ${tool} did not run.`),
        };
      }
      if (removed > 0) {
        notice = `To keep this backup within undo.maxBytes (${formatSize(journal.limits.maxBytes)}), ${removed} older backup(s) were removed: those changes can no longer be undone.`;
      }
      if (data) await journal.blobs.putBytes(hash, data);
      else await journal.blobs.putFromHandle(hash, handle, size);
    }
    keep.add(hash);
    return {
      before: { path: rel, before: { '': node }, backup: true },
      ...(notice ? { notice } : {}),
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ECHANGED')
      return { refuse: changedUnderfoot(tool, rel) };
    throw e;
  } finally {
    await handle.close();
  }
}

function changedUnderfoot(tool: string, rel: string): ToolResult {
  return fail(
    'io',
    `${q(rel)} changed while its old content was being backed up, so ${tool} did not run. Try again.`,
  );
}

/** The content hash of the open file; small files come back whole too, to store without a second read. */
async function hashHandle(
  handle: FileHandle,
  size: number,
): Promise<{ hash: string; data?: Buffer }> {
  if (size <= READ_WHOLE_BYTES) {
    const data = await handle.readFile();
    if (data.byteLength !== size) throw Object.assign(new Error('changed'), { code: 'ECHANGED' });
    return { hash: createHash('sha256').update(data).digest('hex'), data };
  }
  const hash = createHash('sha256');
  let read = 0;
  for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) {
    hash.update(chunk as Buffer);
    read += (chunk as Buffer).byteLength;
  }
  if (read !== size) throw Object.assign(new Error('changed'), { code: 'ECHANGED' });
  return { hash: hash.digest('hex') };
}
