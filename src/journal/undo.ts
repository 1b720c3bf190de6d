/**
 * What `/undo` does, without any text: picks the changes (last turn, last N turns, all, or
 * one path's latest change), plans them (see `planUndo`) and, when the plan is clean or
 * `force` is given, reverts them newest first, recording each in the journal as it goes.
 */
import type { Workspace } from '../tools/workspace.js';
import type { ChangeEntry, Journal } from './journal.js';
import { planUndo, type Conflict } from './planUndo.js';
import { placesIn, type OpenPlace } from './place.js';
import { revertEntry } from './revert.js';
import { journalRel } from './journalPath.js';

/** Which changes to undo. */
export type UndoTarget =
  { kind: 'turns'; count: number } | { kind: 'all' } | { kind: 'path'; input: string };

export type UndoOutcome =
  | { kind: 'nothing' }
  | { kind: 'bad_path'; message: string }
  | { kind: 'refused'; conflicts: Conflict[]; noBackup: string[] }
  | { kind: 'undone'; entries: readonly ChangeEntry[]; problems: string[] };

/**
 * Done changes grouped by the reply they came from, newest group first: at least `count`
 * groups (all there are when fewer). The changes in memory answer when they hold enough whole
 * turns; otherwise the journal is read back from its file.
 */
export function turnsNewestFirst(journal: Journal, count = Infinity): ChangeEntry[][] {
  const recent = journal.entries();
  if (journal.complete()) return groupByTurn(recent);
  // The oldest turn in memory may have begun before the window: it is not whole.
  const cut = recent[0]?.turn;
  const whole = groupByTurn(recent.filter((e) => e.turn !== cut));
  return whole.length >= count ? whole : groupByTurn(journal.all());
}

function groupByTurn(entries: readonly ChangeEntry[]): ChangeEntry[][] {
  const groups = new Map<string, ChangeEntry[]>();
  for (const e of entries) {
    if (e.state !== 'done') continue;
    const g = groups.get(e.turn) ?? [];
    g.push(e);
    groups.set(e.turn, g);
  }
  return [...groups.values()].reverse();
}

/** Picks, plans and (when allowed) reverts; never throws for a bad request. */
export async function undoChanges(
  journal: Journal,
  workspace: Workspace,
  target: UndoTarget,
  force: boolean,
): Promise<UndoOutcome> {
  const picked = await pick(journal, workspace, target);
  if ('message' in picked) return { kind: 'bad_path', message: picked.message };
  if (picked.length === 0) return { kind: 'nothing' };
  const plan = await planUndo(picked, workspace.root, journal.blobs, journal.evicted);
  if (!force && (plan.conflicts.length > 0 || plan.noBackup.length > 0)) {
    return { kind: 'refused', conflicts: plan.conflicts, noBackup: plan.noBackup };
  }
  const places = placesIn(workspace);
  let refusals = 0;
  const open: OpenPlace = async (rel, opts) => {
    const r = await places(rel, opts);
    if (!r.ok && !r.missing) refusals += 1;
    return r;
  };
  const problems: string[] = [...journal.skipped];
  const undone: ChangeEntry[] = [];
  for (const entry of picked) {
    const before = refusals;
    try {
      problems.push(...(await revertEntry(entry, open, journal.blobs, force)));
    } catch (e) {
      problems.push(`${entry.call}: not undone: ${e instanceof Error ? e.message : String(e)}`);
      refusals += 1;
    }
    // A refused path stays as it is, so the change is not marked undone: /changes keeps it.
    if (refusals > before) continue;
    // One line per change as it is reverted: a crash mid-undo leaves a true journal.
    journal.undone([entry.id]);
    undone.push(entry);
  }
  return { kind: 'undone', entries: undone, problems };
}

async function pick(
  journal: Journal,
  workspace: Workspace,
  target: UndoTarget,
): Promise<ChangeEntry[] | { message: string }> {
  if (target.kind === 'all') return turnsNewestFirst(journal).flatMap((g) => [...g].reverse());
  if (target.kind === 'turns') {
    const turns = turnsNewestFirst(journal, target.count);
    return turns.slice(0, target.count).flatMap((g) => [...g].reverse());
  }
  const r = await workspace.resolve(target.input);
  if (!r.ok) return { message: r.error.message };
  // The journal records where a change really landed (real folders): match that form too.
  const names = new Set([
    r.path.rel,
    await journalRel(workspace, r.path.abs, false),
    await journalRel(workspace, r.path.abs, true),
  ]);
  const touches = (e: ChangeEntry): boolean =>
    e.state === 'done' &&
    (e.paths.some((p) => names.has(p.path)) || e.made.some((m) => names.has(m)));
  // The newest change of the path: in memory most often, else read back from the file.
  const found = journal.entries().findLast(touches);
  if (found || journal.complete()) return found ? [found] : [];
  const old = journal.all().findLast(touches);
  return old ? [old] : [];
}
