/**
 * What `/undo` does, without any text: picks the changes (last turn, last N turns, all, or
 * one path's latest change), plans them (see `planUndo`) and, when the plan is clean or
 * `force` is given, reverts them newest first, recording each in the journal as it goes.
 */
import type { Workspace } from '../tools/workspace.js';
import type { ChangeEntry, Journal } from './journal.js';
import { planUndo, type Conflict } from './plan-undo.js';
import { revertEntry } from './revert.js';

/** Which changes to undo. */
export type UndoTarget =
  { kind: 'turns'; count: number } | { kind: 'all' } | { kind: 'path'; input: string };

export type UndoOutcome =
  | { kind: 'nothing' }
  | { kind: 'bad_path'; message: string }
  | { kind: 'refused'; conflicts: Conflict[]; noBackup: string[] }
  | { kind: 'undone'; entries: readonly ChangeEntry[]; problems: string[] };

/** Done changes grouped by the reply they came from, newest group first. */
export function turnsNewestFirst(journal: Journal): ChangeEntry[][] {
  const groups = new Map<string, ChangeEntry[]>();
  for (const e of journal.entries()) {
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
  const resolve = async (
    rel: string,
  ): Promise<{ ok: true; abs: string } | { ok: false; message: string }> => {
    const r = await workspace.resolve(rel);
    return r.ok ? { ok: true, abs: r.path.abs } : { ok: false, message: r.error.message };
  };
  const problems: string[] = [];
  for (const entry of picked) {
    problems.push(...(await revertEntry(entry, resolve, journal.blobs, force)));
    // One line per change as it is reverted: a crash mid-undo leaves a true journal.
    journal.undone([entry.id]);
  }
  return { kind: 'undone', entries: picked, problems };
}

async function pick(
  journal: Journal,
  workspace: Workspace,
  target: UndoTarget,
): Promise<ChangeEntry[] | { message: string }> {
  const turns = turnsNewestFirst(journal);
  if (target.kind === 'all') return turns.flatMap((g) => [...g].reverse());
  if (target.kind === 'turns') return turns.slice(0, target.count).flatMap((g) => [...g].reverse());
  const r = await workspace.resolve(target.input);
  if (!r.ok) return { message: r.error.message };
  const rel = r.path.rel;
  const done = journal.entries().filter((e) => e.state === 'done');
  for (let i = done.length - 1; i >= 0; i--) {
    const e = done[i]!;
    if (e.paths.some((p) => p.path === rel) || e.made.includes(rel)) return [e];
  }
  return [];
}
