/**
 * A call as people read it: the tool log's and the approval card's one line, and the header
 * its result is saved under.
 */
import { formatCall, quoteArg } from './format.js';
import type { CallItem } from './parser.js';
import type { ToolArg } from '../tools/types.js';

/** Text on one line, cut at `max` characters. */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A call as the tool log and the approval card show it (named arguments as `name=value`). */
export function callTextOf(item: CallItem, shorten: (arg: ToolArg) => ToolArg = (a) => a): string {
  if (item.type !== 'call') return oneLine(item.raw, 200);
  const named = (item.named ?? []).map((n) => `${n.name}=${quoteArg(shorten(n.value))}`);
  const text = formatCall(item.name, item.args.map(shorten));
  return named.length === 0
    ? text
    : `${text.slice(0, -1)}${item.args.length > 0 ? ', ' : ''}${named.join(', ')})`;
}

/** Longer string arguments are cut in a result's header; the model wrote them, it has them. */
const HEAD_ARG_MAX = 200;
const HEAD_ARG_KEEP = 80;

/**
 * A call as its result's header names it: a long string argument (a file's whole content)
 * keeps its start and says how much is left out, so the history does not carry it twice.
 */
export function resultHeadOf(item: CallItem, redact: (text: string) => string = (t) => t): string {
  const head = callTextOf(item, (value) => {
    // Redacted before it is cut, so a cut cannot leave a piece of a key.
    const arg = typeof value === 'string' ? redact(value) : value;
    if (typeof arg !== 'string' || arg.length <= HEAD_ARG_MAX) return arg;
    // Never cut a surrogate pair in two.
    const keep = /[\uD800-\uDBFF]/.test(arg[HEAD_ARG_KEEP - 1]!)
      ? HEAD_ARG_KEEP - 1
      : HEAD_ARG_KEEP;
    return `${arg.slice(0, keep)}… [${arg.length - keep} more characters]`;
  });
  return redact(head);
}
