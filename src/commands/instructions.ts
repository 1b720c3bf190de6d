/**
 * /context and /init: the instruction files as the user sees them. /context lists every
 * file loaded (at start and with tool results since), its size, and what the budget cut,
 * which imports were refused and which of Cogito's own changes wait to be seen; running it
 * is the user seeing them, so those changes apply from the next turn. /init asks the model to
 * draft a starting AGENTS.md from what the folder holds, written through the create tool and
 * so through the usual approval for writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { t } from '../i18n/messages.js';
import { formatSize } from '../tools/files/common.js';
import { cutWords } from '../instructions/framing.js';
import type { InstructionFile, InstructionReport } from '../instructions/instructionSet.js';
import type { AfterCommand } from './context.js';
import type { CommandCall, SlashCommand } from './table.js';
import type { Lang } from '../i18n/messages.js';

/** One file's lines: its size and state, its imports, its refused imports. */
function fileLines(f: InstructionFile, width: number): string[] {
  const state = f.unseenChange
    ? 'changed by Cogito this session, not applied'
    : cutWords(f) || (f.origin === 'user' ? "the user's own" : '');
  const lines = [
    `  ${f.shown.padEnd(width)}  ${formatSize(f.bytes).padStart(9)}  ${state}`.trimEnd(),
  ];
  for (const i of f.imported)
    lines.push(`    + ${i.shown.padEnd(width - 2)}  ${formatSize(i.bytes).padStart(9)}  imported`);
  for (const r of f.refused) lines.push(`    ✗ ${r.target} (in ${r.from}) refused: ${r.problem}`);
  return lines;
}

/** The /context text for `report`. */
export function contextText(report: InstructionReport, lang: Lang): string {
  const all = [...report.start, ...report.nested];
  if (all.length === 0) return t(lang, 'cmd.contextNone', { names: report.names.join(', ') });
  const width = Math.max(...all.map((f) => f.shown.length), 12);
  const used = report.start.reduce((n, f) => n + f.kept, 0);
  const lines = [
    t(lang, 'cmd.contextTitle', {
      used: formatSize(used),
      budget: formatSize(report.maxBytes),
    }),
    ...report.start.flatMap((f) => fileLines(f, width)),
  ];
  if (report.nested.length > 0)
    lines.push(t(lang, 'cmd.contextNested'), ...report.nested.flatMap((f) => fileLines(f, width)));
  const unseen = all.filter((f) => f.unseenChange).map((f) => f.shown);
  if (unseen.length > 0) lines.push('', t(lang, 'cmd.contextUnseen', { files: unseen.join(', ') }));
  return lines.join('\n');
}

function context({ ctx }: CommandCall): AfterCommand {
  const port = ctx.instructions;
  if (!port) {
    ctx.say(t(ctx.lang, 'cmd.contextOff'));
    return 'listen';
  }
  ctx.say(contextText(port.report(), ctx.lang));
  port.markSeen();
  return 'listen';
}

/** What the model is asked to do for /init, with the folder's top level as it is now. */
export function initRequest(root: string, entries: readonly string[]): string {
  const listing = entries.length > 0 ? entries.map((e) => `- ${e}`).join('\n') : '(empty)';
  return [
    `/init: please write a starting AGENTS.md for this workspace (${root}) with create("AGENTS.md", …).`,
    'It is the instruction file you and other agents read at the start of every session here. Look around first (ls, read a few files) if you need to. Keep it short and concrete: what this folder is for, how it is organised, where things go, and any rules the user should confirm (mark guesses as guesses). Write it in the language the folder is written in.',
    `The workspace's top level now:\n${listing}`,
  ].join('\n\n');
}

/** The folder's top level for /init: folders with a slash, at most 60, hidden ones left out. */
function topLevel(root: string): string[] {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const shown = names
    .filter((d) => !d.name.startsWith('.'))
    .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
    .sort();
  return shown.length > 60 ? [...shown.slice(0, 60), `… and ${shown.length - 60} more`] : shown;
}

function init({ ctx }: CommandCall): AfterCommand {
  const port = ctx.instructions;
  if (!port) {
    ctx.say(t(ctx.lang, 'cmd.contextOff'));
    return 'listen';
  }
  const report = port.report();
  const existing = report.names.find((n) => fs.existsSync(path.join(report.root, n)));
  if (existing !== undefined) {
    ctx.say(t(ctx.lang, 'cmd.initExists', { file: existing }));
    return 'listen';
  }
  port.queue(initRequest(report.root, topLevel(report.root)));
  ctx.say(t(ctx.lang, 'cmd.initAsked'));
  return 'listen';
}

/** /context and /init, for the command table. */
export const INSTRUCTION_COMMANDS: readonly SlashCommand[] = [
  { name: 'context', usage: '/context', description: 'command.context', run: context },
  { name: 'init', usage: '/init', description: 'command.init', run: init },
];
