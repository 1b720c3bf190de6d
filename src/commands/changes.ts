/**
 * `/changes` and `/undo [N|all|PATH|memory] [--force]`: the change journal as slash commands. They
 * work the same on the screen and as the `-p` prompt (`cogito -p "/undo all"`).
 */
import type { ChangeEntry, Journal } from '../journal/journal.js';
import { turnsNewestFirst, undoChanges, type UndoTarget } from '../journal/undo.js';
import { treeBytes } from '../journal/snapshot.js';
import { formatSize } from '../tools/files/common.js';
import { t, type Lang } from '../i18n/messages.js';
import type { AfterCommand } from './context.js';
import type { CommandCall, SlashCommand } from './table.js';
import { formatDateTime } from '../i18n/dates.js';

/** What `/undo`'s arguments ask for, or undefined when they make no sense. */
function parseUndoArgs(args: string): { target: UndoTarget; force: boolean } | undefined {
  const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
  const force = words.includes('--force');
  const rest = words.filter((w) => w !== '--force').join(' ');
  if (rest === '') return { target: { kind: 'turns', count: 1 }, force };
  if (rest.toLowerCase() === 'all') return { target: { kind: 'all' }, force };
  if (/^\d+$/.test(rest)) {
    const count = Number(rest);
    return count >= 1 ? { target: { kind: 'turns', count }, force } : undefined;
  }
  if (rest.startsWith('-')) return undefined;
  const unquoted = /^"(.*)"$/.exec(rest)?.[1] ?? rest;
  return { target: { kind: 'path', input: unquoted }, force };
}

/** One line of /changes (and of /undo's report) for a change. */
function describeChange(e: ChangeEntry, lang: Lang, evicted: ReadonlySet<string>): string {
  const [first, second] = e.paths;
  const size = (tree: ChangeEntry['paths'][number]['before'] | undefined): string =>
    formatSize(treeBytes(tree ?? {}));
  let text: string;
  switch (e.op) {
    case 'write':
      text =
        first && Object.keys(first.before).length > 0
          ? `${t(lang, 'changes.modified')} ${first.path} (${size(first.before)} → ${size(first.after)})`
          : `${t(lang, 'changes.created')} ${first?.path ?? '?'} (${size(first?.after)})`;
      break;
    case 'copy':
      text = `${t(lang, 'changes.copied')} ${e.from ?? '?'} → ${first?.path ?? '?'} (${size(first?.after)})`;
      break;
    case 'move':
      text = `${t(lang, 'changes.moved')} ${second?.path ?? '?'} → ${first?.path ?? '?'}`;
      break;
    case 'delete':
      text = `${t(lang, 'changes.deleted')} ${first?.path ?? '?'} (${size(first?.before)}, → ${e.trash ?? '?'})`;
      break;
    case 'mkdir':
      text = `${t(lang, 'changes.folder')} ${e.made.at(-1) ?? '?'}/`;
      break;
  }
  const noBackup =
    e.op === 'write' &&
    e.paths.some(
      (p) =>
        Object.values(p.before).some((n) => n.k === 'f' && evicted.has(n.h)) ||
        (!p.backup && Object.keys(p.before).length > 0),
    );
  if (e.state === 'undone') text += ` ${t(lang, 'changes.undone')}`;
  else if (noBackup) text += ` ${t(lang, 'changes.noBackup')}`;
  return text;
}

function changesText(journal: Journal, lang: Lang): string {
  // Every change, older ones read back from the file: /changes lists the whole session.
  const all = journal.all().filter((e) => e.state === 'done' || e.state === 'undone');
  if (all.length === 0) return t(lang, 'changes.none');
  const groups = new Map<string, ChangeEntry[]>();
  for (const e of all) groups.set(e.turn, [...(groups.get(e.turn) ?? []), e]);
  const lines = [t(lang, 'changes.title', { count: journal.filesChanged() })];
  for (const group of [...groups.values()].reverse()) {
    const head = group[0]!;
    const kind = t(lang, head.trigger === 'timer' ? 'changes.autonomous' : 'changes.answer');
    lines.push(`${formatDateTime(head.at, lang)}  ${kind}`);
    for (const e of [...group].reverse())
      lines.push(`  ${describeChange(e, lang, journal.evicted)}`);
  }
  if (journal.evicted.size > 0) {
    lines.push(
      t(lang, 'changes.evicted', {
        count: journal.evicted.size,
        limit: formatSize(journal.limits.maxBytes),
      }),
    );
  }
  return lines.join('\n');
}

async function undo({ ctx, args }: CommandCall): Promise<AfterCommand> {
  const { say, lang } = ctx;
  const journal = ctx.journal?.();
  // A memory change is undone like a file change: `/undo memory`, or a plain `/undo` when it
  // is newer than the last file change (the memory lives in the home, not in the journal).
  const memory = ctx.memory;
  if (memory && args.trim().toLowerCase() === 'memory') return (say(memory.undo()), 'listen');
  const memoryAt = memory?.lastChangeAt();
  if (memory && memoryAt !== undefined && args.trim() === '') {
    const fileAt = journal ? turnsNewestFirst(journal, 1)[0]?.[0]?.at : undefined;
    if (fileAt === undefined || memoryAt >= fileAt) return (say(memory.undo()), 'listen');
  }
  if (!journal) return (say(t(lang, 'undo.noJournal')), 'listen');
  const parsed = parseUndoArgs(args);
  if (!parsed) return (say(t(lang, 'undo.usage')), 'listen');
  const out = await undoChanges(journal, ctx.workspace, parsed.target, parsed.force);
  const shownArgs = args.replace('--force', '').trim() || '1';
  switch (out.kind) {
    case 'bad_path':
      say(out.message);
      break;
    case 'nothing':
      say(
        parsed.target.kind === 'path'
          ? t(lang, 'undo.noPath', { path: parsed.target.input })
          : t(lang, 'undo.none'),
      );
      break;
    case 'refused':
      if (out.conflicts.length > 0) {
        const list = out.conflicts
          .slice(0, 20)
          .map((c) => `  ${c.path} (${t(lang, `undo.${c.what}`)})`)
          .join('\n');
        say(t(lang, 'undo.refused', { list, args: shownArgs }));
      } else {
        say(t(lang, 'undo.refusedBackup', { list: out.noBackup.join(', '), args: shownArgs }));
      }
      break;
    case 'undone': {
      const list = out.entries.map((e) => `  ${describeChange(e, lang, new Set())}`).join('\n');
      // Every change refused (a path now leads into .git or outside): only the reasons.
      if (out.entries.length > 0) say(t(lang, 'undo.done', { count: out.entries.length, list }));
      if (out.problems.length > 0) {
        say(t(lang, 'undo.problems', { list: out.problems.map((p) => `  ${p}`).join('\n') }));
      }
      break;
    }
  }
  return 'listen';
}

/** The two journal commands, for the command table. */
export const CHANGE_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'changes',
    usage: '/changes',
    description: 'command.changes',
    run: ({ ctx }) => {
      const journal = ctx.journal?.();
      ctx.say(journal ? changesText(journal, ctx.lang) : t(ctx.lang, 'undo.noJournal'));
      return 'listen';
    },
  },
  {
    name: 'undo',
    usage: '/undo [N|all|PATH|memory]',
    description: 'command.undo',
    run: undo,
  },
];
