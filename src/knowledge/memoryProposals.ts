/**
 * What waits in a folder memory's inbox: a fact to add, or a tidy of entries already kept
 * (drop them, or merge them into one new fact). A tidy names its entries by their text, not
 * their number, so accepting it after the user changed the memory never drops the wrong
 * entry: when one of them is gone, the accept says so and changes nothing.
 *
 * On disk a proposal is one inbox line like a fact's: an addition is the fact itself, a tidy
 * is `tidy {"replaces":[…],"text":…,"reason":…}` in the text field.
 */
import { localDate, type MemoryEntry } from './memoryFile.js';

/** A change the user has not accepted yet. */
export type Proposal =
  | { kind: 'add'; entry: MemoryEntry }
  | {
      kind: 'tidy';
      date: string;
      source: string;
      /** The texts of the entries it replaces, as they were when it was proposed. */
      replaces: string[];
      /** The fact they become (a merge); absent: they are dropped. */
      text?: string;
      /** Why, in the model's words. */
      reason?: string;
    };

export type TidyProposal = Extract<Proposal, { kind: 'tidy' }>;

const TIDY = /^tidy (\{.*\})$/;

/** The proposal an inbox line holds. */
export function proposalOf(e: MemoryEntry): Proposal {
  const m = TIDY.exec(e.text);
  if (m) {
    try {
      const x = JSON.parse(m[1]!) as Record<string, unknown>;
      const replaces = x.replaces;
      if (Array.isArray(replaces) && replaces.length > 0 && replaces.every(isText))
        return {
          kind: 'tidy',
          date: e.date,
          source: e.source,
          replaces,
          ...(isText(x.text) ? { text: x.text } : {}),
          ...(isText(x.reason) ? { reason: x.reason } : {}),
        };
    } catch {
      // Not a tidy after all: a fact that happens to start with the word.
    }
  }
  return { kind: 'add', entry: e };
}

/** The inbox line of a proposal. */
export function proposalEntry(p: Proposal): MemoryEntry {
  if (p.kind === 'add') return p.entry;
  const body = {
    replaces: p.replaces,
    ...(p.text !== undefined ? { text: p.text } : {}),
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
  };
  return { date: p.date, source: p.source, text: `tidy ${JSON.stringify(body)}` };
}

/** Where `text` is in `memory` (0-based), or -1; case and spacing do not count. */
export function findEntry(memory: readonly MemoryEntry[], text: string): number {
  const key = normal(text);
  return memory.findIndex((e) => normal(e.text) === key);
}

/**
 * A tidy as the user reads it against the memory now: `drop 3: … (reason)`,
 * `merge 2,5 → …`; an entry no longer in the memory is shown as gone.
 */
export function describeProposal(p: Proposal, memory: readonly MemoryEntry[]): string {
  if (p.kind === 'add') return `add: ${p.entry.text}`;
  const at = p.replaces.map((t) => findEntry(memory, t));
  const nums = at.map((i, k) => (i < 0 ? `(gone: "${p.replaces[k]}")` : String(i + 1))).join(',');
  const why = p.reason !== undefined ? ` (${p.reason})` : '';
  if (p.text === undefined) {
    const shown = p.replaces.map((t) => `"${t}"`).join(', ');
    return `drop ${nums}: ${shown}${why}`;
  }
  return `${p.replaces.length > 1 ? 'merge' : 'replace'} ${nums} → ${p.text}${why}`;
}

/**
 * `memory` with the tidy applied (a merged fact takes the place of the first entry it
 * replaces), or why it cannot be: one of its entries is gone.
 */
export function applyTidy(
  memory: readonly MemoryEntry[],
  p: TidyProposal,
  now: number,
): { memory: MemoryEntry[] } | { problem: string } {
  const at = p.replaces.map((t) => findEntry(memory, t));
  const gone = p.replaces.filter((_, k) => at[k]! < 0);
  if (gone.length > 0)
    return {
      problem: `Not applied: ${gone.map((t) => `"${t}"`).join(', ')} ${gone.length > 1 ? 'are' : 'is'} no longer in the memory (edited or forgotten since it was proposed); nothing changed. /memory reject drops the proposal.`,
    };
  const first = Math.min(...at);
  const out: MemoryEntry[] = [];
  memory.forEach((e, i) => {
    if (i === first && p.text !== undefined)
      out.push({ date: localDate(now), source: p.source, text: p.text });
    if (!at.includes(i)) out.push(e);
  });
  return { memory: out };
}

/** What a tidy did, for the undo log and the messages. */
export function tidyWhat(p: TidyProposal): string {
  const list = p.replaces.map((t) => `"${t}"`).join(', ');
  return p.text === undefined ? `dropped ${list}` : `merged ${list} into "${p.text}"`;
}

/** Entry numbers from the model's `replaces` ("2,5", "2 5", "[2, 5]"); undefined: not numbers. */
export function parseNumbers(text: string): number[] | undefined {
  const words = text
    .replace(/[[\]]/g, ' ')
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (words.length === 0 || !words.every((w) => /^\d+$/.test(w) && Number(w) >= 1))
    return undefined;
  return [...new Set(words.map(Number))];
}

function isText(x: unknown): x is string {
  return typeof x === 'string' && x.trim() !== '';
}

/** Whether two facts say the same words (case and spacing do not count). */
export function sameText(a: string, b: string): boolean {
  return normal(a) === normal(b);
}

function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
