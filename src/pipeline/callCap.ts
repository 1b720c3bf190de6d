/**
 * The per-reply call cap: a reply may ask for thousands of calls (10,000 `create` calls
 * once made 10,000 files), so only the first `maxToolCallsPerReply` run and the rest come
 * back to the model as one "not run" result that says why and what to do.
 */
import { DEFAULT_MAX_CALLS_PER_REPLY } from '../config/schema.js';
import type { CallItem } from '../protocol/parser.js';

/** The result block for the calls past the cap (shape of the runner's outcomes). */
export interface NotRunOutcome {
  call: string;
  ok: false;
  body: string;
  truncatedChars: number;
}

/** Splits a reply's calls into those that run and one outcome for the rest, if any. */
export function capCalls(
  items: readonly CallItem[],
  max: number = DEFAULT_MAX_CALLS_PER_REPLY,
  unparsed = 0,
): { run: readonly CallItem[]; notRun?: NotRunOutcome } {
  const cap = callCap(max);
  const total = items.length + unparsed;
  if (total <= cap) return { run: items };
  const skipped = total - cap;
  return {
    run: items.slice(0, cap),
    notRun: {
      call: `${skipped} more call${skipped === 1 ? '' : 's'}`,
      ok: false,
      truncatedChars: 0,
      body:
        `not run: this reply asked for ${total} tool calls and at most ${cap} run per ` +
        `reply (config maxToolCallsPerReply). Calls ${cap + 1} to ${total} were not ` +
        `run. Check the results above, then ask again for what is still needed.`,
    },
  };
}

/** The cap to apply: `max` when it is a positive whole number, else the default. */
export function callCap(max: number | undefined): number {
  return max !== undefined && Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_CALLS_PER_REPLY;
}

/** Gives pending I/O (a keypress, a signal) its turn before the next step. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
