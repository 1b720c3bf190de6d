/**
 * `/memory`: the folder's memory as the user sees and changes it. Alone it lists the facts
 * (numbered) and the inbox of proposals not yet applied; `forget N`, `accept N|all`,
 * `reject N|all` change them; `edit` opens the file in the user's editor where the screen can
 * hand over the terminal (elsewhere it names the file). Every applied change, a hand edit
 * through `edit` among them, is undone by `/undo`.
 */
import {
  MEMORY_LIMITS,
  entriesBytes,
  entryLine,
  type MemoryEntry,
} from '../knowledge/memoryFile.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import { describeProposal, type Proposal } from '../knowledge/memoryProposals.js';
import type { AfterCommand, CommandContext } from './context.js';
import type { CommandCall, SlashCommand } from './table.js';

const USAGE =
  'Use /memory (list), /memory forget N, /memory accept N|all, /memory reject N|all, or /memory edit.';

function numbered(entries: readonly MemoryEntry[]): string[] {
  return entries.map((e, i) => `  ${i + 1}. ${entryLine(e).slice(2)}`);
}

/** One proposal: an addition as its line; a tidy as `drop 3: …`, `merge 2,5 → …`. */
function proposalLine(p: Proposal, facts: readonly MemoryEntry[]): string {
  if (p.kind === 'add') return entryLine(p.entry).slice(2);
  const when = p.date === '' ? '' : `${p.date} · `;
  return `${when}${p.source} · ${describeProposal(p, facts)}`;
}

/** The list: facts with the caps, then the inbox. */
export function memoryListText(memory: FolderMemory): string {
  const facts = memory.entries();
  const inbox = memory.proposals();
  const head = `Memory of this folder: ${facts.length} of ${MEMORY_LIMITS.maxEntries} entries, ${entriesBytes(facts)} of ${MEMORY_LIMITS.maxBytes} bytes (${memory.paths.memory}).`;
  const lines = [head];
  if (facts.length === 0)
    lines.push('  (empty: the agent adds facts with remember("…") during your turns)');
  else
    lines.push(
      ...numbered(facts),
      '  /memory forget N removes one; /undo takes back the last change.',
    );
  if (inbox.length > 0) {
    lines.push(
      `Inbox: ${inbox.length} proposal(s) not in memory until you accept them (/memory accept N|all, /memory reject N|all):`,
      ...inbox.map((p, i) => `  ${i + 1}. ${proposalLine(p, facts)}`),
    );
  }
  return lines.join('\n');
}

/**
 * `/memory edit`: the file in the user's editor where the screen can hand the terminal over
 * (then what changed, undoable), else its path to open by hand.
 */
function editMemory(memory: FolderMemory, open: CommandContext['editFile']): string {
  const file = memory.paths.memory;
  if (!open)
    return `The memory is a plain Markdown file, one fact a line: ${file}\nThis screen cannot hand over the terminal: open it in your editor (e.g. \${EDITOR:-nano} "${file}"); what you change there is read at the start of the next session.`;
  const before = memory.beforeEdit();
  const edited = open(file);
  if (!edited.ok) return `${edited.problem} The memory file is ${file}.`;
  const exit = edited.code === 0 ? '' : ` (the editor exited with code ${edited.code ?? 'none'})`;
  return `${memory.afterEdit(before)}${exit}`;
}

/** `N` or `all` from the words after a verb, or undefined when it is neither. */
function which(word: string | undefined, allowAll: boolean): number | 'all' | undefined {
  if (word === undefined) return undefined;
  if (allowAll && word.toLowerCase() === 'all') return 'all';
  return /^\d+$/.test(word) && Number(word) >= 1 ? Number(word) : undefined;
}

function run({ ctx, args }: CommandCall): AfterCommand {
  const { say } = ctx;
  const memory = ctx.memory;
  if (!memory) return (say('This run keeps no folder memory.'), 'listen');
  const [verb, arg, extra] = args.trim().split(/\s+/).filter(Boolean);
  const bad = (why: string): AfterCommand => (say(`${why} ${USAGE}`), 'listen');
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'list':
      say(memoryListText(memory));
      return 'listen';
    case 'edit':
      say(editMemory(memory, ctx.editFile));
      return 'listen';
    case 'forget': {
      const n = which(arg, false);
      if (n === undefined || n === 'all' || extra !== undefined)
        return bad('/memory forget takes one entry number.');
      say(memory.forget(n));
      return 'listen';
    }
    case 'accept':
    case 'reject': {
      const n = which(arg, true);
      if (n === undefined || extra !== undefined)
        return bad(`/memory ${verb.toLowerCase()} takes an inbox number or "all".`);
      say(verb.toLowerCase() === 'accept' ? memory.accept(n) : memory.reject(n));
      return 'listen';
    }
    default:
      return bad(`Unknown /memory action "${verb}".`);
  }
}

/** The /memory command, for the command table. */
export const MEMORY_COMMAND: SlashCommand = {
  name: 'memory',
  usage: '/memory [forget N|accept N|reject N|edit]',
  description: 'command.memory',
  run,
};
