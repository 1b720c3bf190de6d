/**
 * Finishing a change a crash interrupted: its `begin` is in the journal but no `done`. The
 * change is undone from what the journal holds (old content from the backups, a moved or
 * trashed thing put back), so the workspace is left as if the call never ran.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { TRASH_DIR } from '../tools/files/common.js';
import type { Workspace } from '../tools/workspace.js';
import type { ChangeEntry, Journal } from './journal.js';
import { readTree, sameTree } from './snapshot.js';

/** Rolls back every unfinished change; returns the ids of those that had changed something. */
export async function rollBackUnfinished(
  journal: Journal,
  workspace: Workspace,
): Promise<Set<string>> {
  const rolled = new Set<string>();
  for (const entry of journal.entries()) {
    if (entry.state !== 'pending') continue;
    const changed = await rollBack(entry, workspace, journal);
    journal.none(entry.id, changed ? 'rolled_back' : 'no_change');
    if (changed) rolled.add(entry.id);
  }
  return rolled;
}

async function rollBack(
  entry: ChangeEntry,
  workspace: Workspace,
  journal: Journal,
): Promise<boolean> {
  const abs = (rel: string): string => path.join(workspace.root, ...rel.split('/'));
  let changed = false;
  const [first, second] = entry.paths;
  if (entry.op === 'write' && first) {
    if (await removeAtomicLeftovers(abs(first.path), entry.at)) changed = true;
    const now = await readTree(abs(first.path));
    const node = first.before[''];
    if (!sameTree(now, first.before)) {
      changed = true;
      if (node === undefined) await fsp.rm(abs(first.path), { force: true });
      else if (node.k === 'f' && journal.blobs.has(node.h)) {
        await fsp.copyFile(journal.blobs.pathOf(node.h), abs(first.path));
        await fsp.chmod(abs(first.path), node.m);
      }
    }
  } else if (entry.op === 'copy' && first && Object.keys(first.before).length === 0) {
    // A copy never overwrites: whatever is at its destination now is the copy, whole or half
    // (a copy is written to a temporary sibling and linked into place).
    if (await removeAtomicLeftovers(abs(first.path), entry.at)) changed = true;
    if (await removeIfPresent(abs(first.path))) changed = true;
  } else if (entry.op === 'move' && first && second && Object.keys(first.before).length === 0) {
    changed = await putBack(abs(first.path), abs(second.path));
  } else if (entry.op === 'delete' && first) {
    const trashed = await findInTrash(workspace, first.path, first.before);
    if (trashed) changed = await putBack(trashed, abs(first.path));
  }
  for (const dir of entry.made) {
    if (
      await fsp.rmdir(abs(dir)).then(
        () => true,
        () => false,
      )
    )
      changed = true;
  }
  return changed;
}

/**
 * The atomic writers write a temporary file beside the target and rename it over: the
 * checked writer `.<name>.<hex>.cogito-tmp`, write-file-atomic `<name>.<number>`. A kill in
 * between leaves that file. Removes the ones made since the change began.
 */
async function removeAtomicLeftovers(abs: string, since: number): Promise<boolean> {
  const dir = path.dirname(abs);
  const base = path.basename(abs);
  let removed = false;
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (!isAtomicLeftover(name, base)) continue;
    const st = await fsp.lstat(path.join(dir, name)).catch(() => undefined);
    if (!st?.isFile() || st.mtimeMs < since - 1000) continue;
    await fsp.rm(path.join(dir, name), { force: true });
    removed = true;
  }
  return removed;
}

function isAtomicLeftover(name: string, base: string): boolean {
  if (name.startsWith(`${base}.`) && /^\d+$/.test(name.slice(base.length + 1))) return true;
  return (
    name.startsWith(`.${base}.`) && /^[0-9a-f]+\.cogito-tmp$/.test(name.slice(base.length + 2))
  );
}

/** Moves `from` back to `to`; when both exist (a cross-device move half done) drops `from`. */
async function putBack(from: string, to: string): Promise<boolean> {
  const fromThere = await present(from);
  if (!fromThere) return false;
  if (await present(to)) return removeIfPresent(from);
  await fsp.rename(from, to);
  return true;
}

async function removeIfPresent(abs: string): Promise<boolean> {
  if (!(await present(abs))) return false;
  await fsp.rm(abs, { recursive: true, force: true });
  return true;
}

async function present(abs: string): Promise<boolean> {
  return fsp.lstat(abs).then(
    () => true,
    () => false,
  );
}

/** The trash entry a delete made of `rel`: named `<stamp>-<name>` and holding the same tree. */
async function findInTrash(
  workspace: Workspace,
  rel: string,
  before: ChangeEntry['paths'][number]['before'],
): Promise<string | undefined> {
  if (await present(path.join(workspace.root, ...rel.split('/')))) return undefined;
  const trash = path.join(workspace.root, TRASH_DIR);
  const names = await fsp.readdir(trash).catch(() => [] as string[]);
  const base = path.posix.basename(rel);
  for (const name of names.sort().reverse()) {
    if (!name.endsWith(`-${base}`) && !name.includes(`-${base}-`)) continue;
    const candidate = path.join(trash, name);
    if (sameTree(await readTree(candidate), before)) return candidate;
  }
  return undefined;
}
