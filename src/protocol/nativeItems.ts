/**
 * The items a native call block becomes (nativeCalls.ts): the calls with their extents in
 * the reply, or the one corrective item for a block that could not be read.
 */
import { arrayElementStarts } from './jsonArgs.js';
import { guessCanonical, guessName } from './jsonCalls.js';
import { expectedForm } from './messages.js';
import type { CallItem, NamedArg, ParsedCall } from './types.js';

/** Items read from one native block, and where the scan resumes. */
export interface NativeParse {
  items: CallItem[];
  resume: number;
}

/** One call found in a block; `at` is where its own text starts, when it is known. */
export interface FoundCall {
  name: string;
  named: NamedArg[];
  args?: ParsedCall['args'];
  at?: number;
}

/** The calls of a JSON array at `open`, each with where its element starts. */
export function located(text: string, open: number, end: number, calls: FoundCall[]): FoundCall[] {
  if (text[open] !== '[' || calls.length < 2) return calls;
  const starts = arrayElementStarts(text, open, end);
  return calls.map((c, k) => (starts[k] === undefined ? c : { ...c, at: starts[k] }));
}

/**
 * The items of one block. Several calls split the block's extent where each one's text
 * starts (the first from the block's start, the last to its end), so extents never overlap.
 */
export function spread(
  text: string,
  start: number,
  end: number,
  calls: readonly FoundCall[],
  label: string,
): CallItem[] {
  const cuts = calls.map((c, k) => (k === 0 ? start : (c.at ?? start)));
  // Fall back to even shares when the starts are unknown or out of order.
  const ordered = cuts.every((x, k) => k === 0 || (x > (cuts[k - 1] ?? start) && x < end));
  const n = calls.length;
  const cut = (k: number): number =>
    k >= n ? end : ordered ? (cuts[k] ?? end) : start + Math.floor(((end - start) * k) / n);
  return calls.map((c, k) => {
    const a = cut(k);
    const b = cut(k + 1);
    const item: ParsedCall = {
      type: 'call',
      name: c.name,
      args: c.args ?? [],
      raw: text.slice(a, b),
      start: a,
      end: b,
      readAs: [label],
    };
    const positional = c.named.filter((x) => x.name.startsWith('#'));
    if (positional.length > 0 && positional.length === c.named.length) {
      item.args = positional.map((x) => x.value);
    } else if (c.named.length > 0) {
      item.named = c.named;
    }
    return item;
  });
}

/** The corrective item for a block that opened but could not be read. */
export function malformed(
  text: string,
  start: number,
  end: number,
  label: string,
  problem: string,
  body: string,
  name?: string,
): NativeParse {
  const seen = name ?? guessName(body);
  const form = seen === undefined ? expectedForm() : `Expected: ${guessCanonical(body, seen)}`;
  const error =
    `${label} was found but could not be read: ${problem}. Write tool calls in Cogito's ` +
    `form, one per block. ${form}`;
  const item: CallItem = { type: 'malformed', raw: text.slice(start, end), start, end, error };
  if (seen !== undefined) item.name = seen;
  return { items: [item], resume: end };
}
