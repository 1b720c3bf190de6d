/**
 * Undo for `run`: a command may change any file in the workspace, so which paths it touches
 * is only known afterwards. Before a command that can write, the workspace's state is read
 * and every file's content is in the backup store (see `workspaceState.ts`); afterwards the
 * state is read again and each path the command created, changed or deleted becomes one
 * journaled `write` change of the turn (and the folders it made one `mkdir` change), so
 * `/changes` lists them and `/undo` puts them back like the file tools' changes.
 * The lines are written once the command has ended: a crash mid-command leaves the backups
 * in the store but no journal line for that command.
 */
import { changeHeader } from './changeHeader.js';
import type { Tool, ToolArg, ToolContext, ToolResult } from '../tools/types.js';
import type { Journal } from './journal.js';
import type { JournalRef } from './wrap.js';
import { backUpState, readWorkspace, type WorkspaceState } from './workspaceState.js';
import type { FlatTree, TreeNode } from './snapshot.js';
import type { ChangeStart } from './records.js';
import { sameNode } from './snapshot.js';

/** Options: which calls only read (they run with the workspace read-only: nothing to undo). */
export interface RunJournalOptions {
  readOnly(args: readonly ToolArg[]): boolean;
  /** Paths inside the workspace left out of the state (Cogito's own files). */
  skip?(abs: string): boolean;
}

/** Wraps the `run` tool so what its commands change is journaled. */
export function withRunJournal(tool: Tool, journalRef: JournalRef, opts: RunJournalOptions): Tool {
  // The last state read, so the next look only hashes what changed since.
  let last: { root: string; state: WorkspaceState } | undefined;
  return {
    ...tool,
    async run(args, ctx) {
      const journal = journalRef();
      // A background command goes on writing after the call returns: no after-state to read.
      if (!journal || opts.readOnly(args) || args[2] === true) return tool.run(args, ctx);
      const root = ctx.workspace.root;
      const prev = last?.root === root ? last.state : undefined;
      const before = await readWorkspace(root, prev, opts.skip);
      const kept = await backUpState(root, before.state, journal);
      const result = await tool.run(args, ctx);
      const after = await readWorkspace(root, before.state, opts.skip);
      last = { root, state: after.state };
      const changed = record(journal, args, ctx, before.state, after.state, kept);
      return withChanges(result, changed, before.complete);
    },
  };
}

/** One path the command changed. */
interface Changed {
  path: string;
  before?: TreeNode;
  after?: TreeNode;
}

/** Journals what differs between the two states; returns the paths changed. */
function record(
  journal: Journal,
  args: readonly ToolArg[],
  ctx: ToolContext,
  before: WorkspaceState,
  after: WorkspaceState,
  kept: ReadonlySet<string>,
): Changed[] {
  const changed: Changed[] = [];
  const madeDirs: string[] = [];
  for (const [p, now] of after) {
    const old = before.get(p);
    if (now.node.k === 'd') {
      if (old === undefined) madeDirs.push(p);
      continue;
    }
    if (old === undefined || old.node.k === 'd' || !sameNode(old.node, now.node)) {
      changed.push({
        path: p,
        ...(old && old.node.k !== 'd' ? { before: old.node } : {}),
        after: now.node,
      });
    }
  }
  for (const [p, old] of before) {
    if (old.node.k === 'd' || after.has(p)) continue;
    const now = after.get(p);
    changed.push({ path: p, before: old.node, ...(now ? { after: now.node } : {}) });
  }
  if (changed.length === 0 && madeDirs.length === 0) return [];
  const now = Date.now();
  const base = (): Omit<ChangeStart, 'op' | 'paths' | 'made'> =>
    changeHeader(ctx, journal.nextId(now), now, 'run', args);
  // The folders first: undo goes newest first, so they are removed after their files.
  if (madeDirs.length > 0) {
    const made = [...madeDirs].sort((a, b) => b.split('/').length - a.split('/').length);
    const start = { ...base(), op: 'mkdir' as const, paths: [], made };
    journal.begin(start);
    journal.done(start.id, {}, made);
  }
  for (const c of changed) {
    const backup = c.before?.k !== 'f' || kept.has(c.before.h);
    const start = {
      ...base(),
      op: 'write' as const,
      paths: [{ path: c.path, before: treeOf(c.before), backup }],
      made: [],
    };
    journal.begin(start);
    journal.done(start.id, { [c.path]: treeOf(c.after) }, []);
  }
  return changed;
}

/** A single path's tree: the node at its root, or nothing. */
function treeOf(node: TreeNode | undefined): FlatTree {
  return node ? { '': node } : {};
}

/** Tells the model what the command changed in the workspace and how to undo it. */
function withChanges(
  result: ToolResult,
  changed: readonly Changed[],
  complete: boolean,
): ToolResult {
  if (changed.length === 0 && complete) return result;
  const word = (c: Changed): string =>
    c.before === undefined ? 'created' : c.after === undefined ? 'deleted' : 'changed';
  const shown = changed.slice(0, 20).map((c) => `${word(c)} ${c.path}`);
  if (changed.length > 20) shown.push(`and ${changed.length - 20} more`);
  const lines: string[] = [];
  if (changed.length > 0) lines.push(`Workspace changes (undo: /undo): ${shown.join(', ')}.`);
  if (!complete) lines.push('The workspace is too large to be covered by undo in full.');
  const note = lines.join('\n');
  if (!result.ok)
    return { ...result, error: { ...result.error, message: `${result.error.message}\n${note}` } };
  const data = typeof result.data === 'string' ? `${result.data}\n${note}` : result.data;
  const single = changed.length === 1 ? ` ${changed[0]!.path}` : '';
  return { ...result, data, ...(changed.length > 0 ? { undo: `/undo${single}` } : {}) };
}
