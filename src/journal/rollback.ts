/**
 * Finishing a change a crash interrupted: its `begin` is in the journal but no `done`. The
 * change is undone from what the journal holds (old content from the backups, a moved or
 * trashed thing put back), so the workspace is left as if the call never ran. The journal is
 * data that may have been tampered with while Cogito was down, and the workspace may have
 * changed too: every path is opened through `place.ts` (resolved for write like a tool's
 * write, no symlink followed), and whatever is refused is reported, never acted on.
 */
import fsp from 'node:fs/promises';
import { TRASH_DIR } from '../tools/files/common.js';
import type { Workspace } from '../tools/workspace.js';
import type { ChangeEntry, Journal } from './journal.js';
import { isPresent, placesIn, restoreFile, type OpenPlace, type Place } from './place.js';
import { readTree, sameTree } from './snapshot.js';

/** What rolling back found: ids of the changes that had changed something, and refusals. */
export interface RollbackReport {
  rolled: Set<string>;
  /** Journal lines skipped and paths refused, each naming what and why. */
  refused: string[];
}

/** Rolls back every unfinished change. */
export async function rollBackUnfinished(
  journal: Journal,
  workspace: Workspace,
): Promise<RollbackReport> {
  const report: RollbackReport = { rolled: new Set(), refused: [...journal.skipped] };
  const places = placesIn(workspace);
  // Read back whole: a change left pending may be older than the ones kept in memory.
  for (const entry of journal.all()) {
    if (entry.state !== 'pending') continue;
    let changed: boolean;
    try {
      changed = await rollBack(entry, places, journal, report.refused);
    } catch (e) {
      // Left pending, so the next start says it again: nothing is claimed that did not happen.
      const why = e instanceof Error ? e.message : String(e);
      report.refused.push(`change ${entry.id} (${entry.call}): could not be rolled back: ${why}`);
      continue;
    }
    journal.none(entry.id, changed ? 'rolled_back' : 'no_change');
    if (changed) report.rolled.add(entry.id);
  }
  return report;
}

/** One step of a rollback: `use` runs on the opened place; a refusal is noted. */
type Step = (rel: string, use: (p: Place) => Promise<boolean>, trash?: boolean) => Promise<boolean>;

async function rollBack(
  entry: ChangeEntry,
  places: OpenPlace,
  journal: Journal,
  refused: string[],
): Promise<boolean> {
  const at: Step = async (rel, use, trash = false) => {
    const r = await places(rel, { trash });
    if (!r.ok) {
      if (!r.missing) refused.push(`change ${entry.id} (${entry.call}): ${r.message}`);
      return false;
    }
    try {
      return await use(r.place);
    } finally {
      await r.place.close();
    }
  };
  let changed = false;
  const [first, second] = entry.paths;
  if (entry.op === 'write' && first) {
    changed = await at(first.path, async (p) => {
      const leftovers = await removeAtomicLeftovers(p, entry.at);
      const node = first.before[''];
      if (sameTree(await readTree(p.at), first.before)) return leftovers;
      if (node === undefined) await fsp.rm(p.at, { force: true });
      else if (node.k === 'f' && journal.blobs.has(node.h)) {
        await restoreFile(p, journal.blobs.pathOf(node.h), node.h, node.m);
      } else {
        // A link is not put back by rollback; a file without its backup cannot be.
        if (node.k === 'f') {
          refused.push(`change ${entry.id} (${entry.call}): no backup of ${first.path} is left`);
        }
        return leftovers;
      }
      return true;
    });
  } else if (entry.op === 'copy' && first && Object.keys(first.before).length === 0) {
    // A copy never overwrites: whatever is at its destination now is the copy, whole or half
    // (a copy is written to a temporary sibling and linked into place).
    changed = await at(first.path, async (p) => {
      const leftovers = await removeAtomicLeftovers(p, entry.at);
      return (await removeIfPresent(p)) || leftovers;
    });
  } else if (entry.op === 'move' && first && second && Object.keys(first.before).length === 0) {
    changed = await at(first.path, (from) => at(second.path, (to) => putBack(from, to)));
  } else if (entry.op === 'delete' && first) {
    changed = await at(first.path, async (to) => {
      if (await isPresent(to)) return false;
      const trashed = await findInTrash(places, first.path, first.before);
      if (trashed === undefined) return false;
      return at(trashed, (from) => putBack(from, to), true);
    });
  }
  for (const dir of entry.made) {
    const removed = await at(
      dir,
      (p) =>
        fsp.rmdir(p.at).then(
          () => true,
          () => false,
        ),
      dir === TRASH_DIR,
    );
    if (removed) changed = true;
  }
  return changed;
}

/**
 * The checked writer writes a temporary file beside the target, `.<name>.<hex>.cogito-tmp`,
 * and renames it over; a kill in between leaves that file. Removes the ones made since the
 * change began (only that exact shape: a user's `<name>.1` is never taken for one).
 */
async function removeAtomicLeftovers(place: Place, since: number): Promise<boolean> {
  const base = place.rel.split('/').pop()!;
  let removed = false;
  for (const name of await fsp.readdir(place.sibling('')).catch(() => [] as string[])) {
    if (!isAtomicLeftover(name, base)) continue;
    const st = await fsp.lstat(place.sibling(name)).catch(() => undefined);
    if (!st?.isFile() || st.mtimeMs < since - 1000) continue;
    await fsp.rm(place.sibling(name), { force: true });
    removed = true;
  }
  return removed;
}

function isAtomicLeftover(name: string, base: string): boolean {
  return (
    name.startsWith(`.${base}.`) && /^[0-9a-f]+\.cogito-tmp$/.test(name.slice(base.length + 2))
  );
}

/** Moves `from` back to `to`; when both exist (a cross-device move half done) drops `from`. */
async function putBack(from: Place, to: Place): Promise<boolean> {
  if (!(await isPresent(from))) return false;
  if (await isPresent(to)) return removeIfPresent(from);
  await fsp.rename(from.at, to.at);
  return true;
}

async function removeIfPresent(place: Place): Promise<boolean> {
  if (!(await isPresent(place))) return false;
  await fsp.rm(place.at, { recursive: true, force: true });
  return true;
}

/** The trash entry a delete made of `rel`: named `<stamp>-<name>` and holding the same tree. */
async function findInTrash(
  places: OpenPlace,
  rel: string,
  before: ChangeEntry['paths'][number]['before'],
): Promise<string | undefined> {
  const base = rel.split('/').pop()!;
  const probe = await places(`${TRASH_DIR}/${base}`, { trash: true });
  if (!probe.ok) return undefined;
  try {
    const names = await fsp.readdir(probe.place.sibling('')).catch(() => [] as string[]);
    for (const name of names.sort().reverse()) {
      if (!name.endsWith(`-${base}`) && !name.includes(`-${base}-`)) continue;
      if (sameTree(await readTree(probe.place.sibling(name)), before))
        return `${TRASH_DIR}/${name}`;
    }
  } finally {
    await probe.place.close();
  }
  return undefined;
}
