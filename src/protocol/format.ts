/**
 * The inverse of the parser: writes calls in the protocol's own syntax (for prompts, the
 * tool log and result headers) and packs a reply's tool results into one message for the
 * model, each cut to a budget.
 */
import type { ToolArg } from '../tools/types.js';

/** One tool result, ready to show the model. */
export interface ResultBlock {
  /** The call as text, e.g. `ls(".")` (see {@link formatCall}). */
  call: string;
  ok: boolean;
  body: string;
  /** How many characters were cut from `body` (see {@link truncateForModel}). */
  truncatedChars?: number;
}

/** Escapes one UTF-16 code unit that must not appear raw inside a quoted argument. */
function escapeUnit(ch: string): string {
  switch (ch) {
    case '\\':
      return '\\\\';
    case '"':
      return '\\"';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
  }
}

/* eslint-disable no-control-regex -- control characters are what this pattern escapes */
/**
 * Escapes backslash, quote, control characters, the two Unicode line separators and lone
 * surrogates (so the output is valid UTF-16 text that survives JSON and HTTP); CJK text and
 * emoji stay readable. The pattern matches a surrogate pair as a whole so pairs are kept.
 */
const NEEDS_ESCAPE =
  /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\\"\u0000-\u001f\u007f\u2028\u2029\uD800-\uDFFF]/g;
/* eslint-enable no-control-regex */

/**
 * Quotes one argument so that {@link parseReply} reads back the identical value: strings in
 * double quotes with escapes, numbers as JavaScript writes them (`-0` kept), booleans and
 * null as words. A non-finite number has no protocol form and is written `null`, as JSON does.
 */
export function quoteArg(v: ToolArg): string {
  if (typeof v === 'string') {
    return '"' + v.replace(NEEDS_ESCAPE, (m) => (m.length === 2 ? m : escapeUnit(m))) + '"';
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return 'null';
    return Object.is(v, -0) ? '-0' : String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return 'null';
}

/** A call in protocol syntax, without the tags: `name("a", 1, true)`. */
export function formatCall(name: string, args: readonly ToolArg[]): string {
  return `${name}(${args.map(quoteArg).join(', ')})`;
}

/**
 * All results of one reply as a single user-role message, in call order:
 *
 * ```text
 * [RESULT ls(".")] ok
 * <body>
 * [… 1234 more characters cut …]      (only when truncatedChars > 0)
 * [/RESULT]
 * ```
 *
 * `error` replaces `ok` for failures. Blocks are separated by a blank line; an empty list
 * gives an empty string.
 */
export function formatResultsMessage(results: readonly ResultBlock[]): string {
  return results
    .map((r) => {
      const lines = [`[RESULT ${r.call}] ${r.ok ? 'ok' : 'error'}`];
      const body = r.body.replace(/\r?\n$/, '');
      if (body !== '') lines.push(body);
      const cut = r.truncatedChars ?? 0;
      if (cut > 0) lines.push(`[… ${cut} more characters cut …]`);
      lines.push('[/RESULT]');
      return lines.join('\n');
    })
    .join('\n\n');
}

/** Marks where {@link truncateForModel} removed the middle of a body. */
export const CUT_MARK = '\n[… cut …]\n';

/** Share of the budget given to the tail: the end of a log or listing often matters too. */
const TAIL_SHARE = 0.2;
const TAIL_MAX = 2000;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Cuts `body` to at most `budgetChars` UTF-16 units: the head, {@link CUT_MARK}, and a bit
 * of the tail (a fifth of the budget, at most 2000). Cuts never split a surrogate pair, so
 * emoji stay whole. `cutChars` counts the body characters left out (0 when it fits); pass
 * it on as `truncatedChars`. A budget too small for the mark keeps the head only.
 */
export function truncateForModel(
  body: string,
  budgetChars: number,
): { text: string; cutChars: number } {
  const budget = Number.isFinite(budgetChars) ? Math.max(0, Math.floor(budgetChars)) : 0;
  if (body.length <= budget) return { text: body, cutChars: 0 };
  if (budget < CUT_MARK.length * 4) {
    let headEnd = budget;
    if (headEnd > 0 && isHigh(body.charCodeAt(headEnd - 1))) headEnd -= 1;
    return { text: body.slice(0, headEnd), cutChars: body.length - headEnd };
  }
  const room = budget - CUT_MARK.length;
  const tailLen = Math.min(TAIL_MAX, Math.floor(room * TAIL_SHARE));
  let headEnd = room - tailLen;
  if (isHigh(body.charCodeAt(headEnd - 1))) headEnd -= 1;
  let tailStart = body.length - tailLen;
  if (isLow(body.charCodeAt(tailStart)) && isHigh(body.charCodeAt(tailStart - 1))) tailStart += 1;
  return {
    text: body.slice(0, headEnd) + CUT_MARK + body.slice(tailStart),
    cutChars: tailStart - headEnd,
  };
}
