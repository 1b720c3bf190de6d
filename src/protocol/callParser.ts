/**
 * Parses one call starting at a `[TOOL]` tag: `[TOOL] name(arg, …) [/TOOL]`.
 *
 * Strings are opaque here, so `)`, `,`, `"` (escaped) and even `[/TOOL]` inside a string are
 * just text. When the grammar breaks, the call becomes a {@link MalformedCall} whose extent
 * ends at the next landmark (see {@link recover}), so one broken call never swallows the
 * call after it and never hides code that follows.
 */
import type { ToolArg } from '../tools/types.js';
import { isLineStart } from './codeSpans.js';
import { readValue } from './lexer.js';
import { LOOKALIKES, describeChar, expectedForm, snippet } from './messages.js';
import { CLOSE_TAG, OPEN_TAG, firstAtOrAfter, tagAt, type ReplyIndex } from './replyIndex.js';
import type { CallItem, MalformedCall } from './types.js';

/** A parsed item and where the scanner resumes after it. */
export interface CallParse {
  readonly item: CallItem;
  readonly resume: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;

function skipWs(src: string, i: number): number {
  let j = i;
  while (j < src.length) {
    const c = src.charCodeAt(j);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) j += 1;
    else if (c > 0x7f && /\s/.test(src[j] ?? '')) j += 1;
    else break;
  }
  return j;
}

/**
 * Why the argument list cannot go on at `i` when `i` is the end of the reply, a tag or the
 * trailing `[WAIT]`; undefined when something else is there.
 */
function argsStop(ix: ReplyIndex, i: number, name: string): string | undefined {
  if (i >= ix.src.length) {
    return `the reply ended inside the argument list of ${name}: finish it with ) [/TOOL].`;
  }
  const tag = tagAt(ix.src, i);
  if (tag === 'close') return `missing ) before [/TOOL]: close the argument list.`;
  if (tag === 'open') return `missing ) and [/TOOL] before the next [TOOL]: close each call first.`;
  if (i === ix.waitAt) return `missing ) and [/TOOL] before [WAIT]: close the call first.`;
  return undefined;
}

/** What is wrong when something other than `[/TOOL]` follows the closing `)` at `i`. */
function afterCallError(ix: ReplyIndex, i: number, name: string): string {
  const { src } = ix;
  if (i >= src.length) {
    return `missing [/TOOL]: the reply ended right after ${name}(…). End every call with [/TOOL].`;
  }
  if (tagAt(src, i) === 'open') {
    return `missing [/TOOL] before the next [TOOL]: end every call with [/TOOL] before starting another.`;
  }
  if (i === ix.waitAt) return `missing [/TOOL] before [WAIT]: end the call with [/TOOL] first.`;
  const extra = src.slice(i, i + 24).split(/\[\/?tool\]/i)[0] ?? '';
  const another = /^[A-Za-z_][\w.-]*\s*\(/.test(extra)
    ? ' Write one call per block: [TOOL] a() [/TOOL] [TOOL] b() [/TOOL].'
    : '';
  return (
    `unexpected text after ${name}(…): ${snippet(extra)}. Put [/TOOL] right after the ` +
    `closing ).${another}`
  );
}

/**
 * The malformed item for a call that broke at `from`. Its extent runs to the first landmark
 * at or after `from`: a `[/TOOL]` (included), or a `[TOOL]`, the trailing `[WAIT]`, a fence
 * line or a backtick (excluded: they start the next thing the scanner must see).
 */
function recover(
  ix: ReplyIndex,
  start: number,
  from: number,
  error: string,
  name?: string,
): CallParse {
  const { src } = ix;
  const close = firstAtOrAfter(ix.closeTags, from);
  // A fence line counts from its line start when the break is in its indentation.
  let lineStart = from;
  while (lineStart > start && /[ \t]/.test(src[lineStart - 1] ?? '')) lineStart -= 1;
  const fence = firstAtOrAfter(
    ix.fenceLines,
    lineStart > start && isLineStart(src, lineStart) ? lineStart : from,
  );
  const stop = Math.min(
    firstAtOrAfter(ix.openTags, Math.max(from, start + 1)),
    ix.waitAt >= from ? ix.waitAt : Infinity,
    fence,
    firstAtOrAfter(ix.backticks, from),
    src.length,
  );
  let end: number;
  let resume: number;
  if (close < stop) {
    end = close + CLOSE_TAG.length;
    resume = end;
  } else {
    resume = stop;
    end = Math.max(start + OPEN_TAG.length, start + src.slice(start, stop).trimEnd().length);
  }
  const item: MalformedCall = { type: 'malformed', raw: src.slice(start, end), start, end, error };
  if (name !== undefined) item.name = name;
  return { item, resume };
}

/** Parses the call whose `[TOOL]` tag starts at `start`. Never throws. */
export function parseCallAt(ix: ReplyIndex, start: number): CallParse {
  const { src } = ix;
  let i = skipWs(src, start + OPEN_TAG.length);

  if (i >= src.length || tagAt(src, i) !== undefined || i === ix.waitAt || src[i] === '(') {
    const error = `empty [TOOL] block: write the tool's name right after [TOOL]. ${expectedForm()}`;
    return recover(ix, start, i, error);
  }
  NAME.lastIndex = i;
  const name = NAME.exec(src)?.[0];
  const afterName = i + (name?.length ?? 0);
  if (name !== undefined && LOOKALIKES[src[afterName] ?? ''] !== undefined) {
    const error =
      `${snippet(src[afterName] ?? '')} after ${name} is a full-width character: write the ` +
      `protocol's ASCII ( ) , and quotes instead. ${expectedForm(name)}`;
    return recover(ix, start, afterName, error, name);
  }
  if (name === undefined || /[^\s()[\]"',;]/.test(src[afterName] ?? ' ')) {
    const token = /^[^\s(]*/.exec(src.slice(i, i + 40))?.[0] ?? '';
    const error =
      `invalid tool name ${snippet(token)}: a name starts with a letter or _ and uses only ` +
      `letters, digits, _ . and -. ${expectedForm()}`;
    return recover(ix, start, i, error);
  }
  i = skipWs(src, afterName);
  if (src[i] !== '(') {
    const error =
      `missing parentheses after ${name}: put the arguments inside ( ), and write ` +
      `${name}() when there are none. ${expectedForm(name)}`;
    return recover(ix, start, i, error, name);
  }

  const parsed = parseArgs(ix, i + 1, name);
  if (!parsed.ok) return recover(ix, start, parsed.from, parsed.error, name);
  i = skipWs(src, parsed.end);

  if (tagAt(src, i) !== 'close') {
    return recover(ix, start, i, `${afterCallError(ix, i, name)} ${expectedForm(name)}`, name);
  }
  const end = i + CLOSE_TAG.length;
  const raw = src.slice(start, end);
  if (parsed.error !== undefined) {
    return { item: { type: 'malformed', name, raw, start, end, error: parsed.error }, resume: end };
  }
  return { item: { type: 'call', name, args: parsed.args, raw, start, end }, resume: end };
}

type ArgsParse =
  | { ok: true; args: ToolArg[]; end: number; error?: string }
  | { ok: false; error: string; from: number };

/** Parses the argument list from just after `(` through the closing `)`. */
function parseArgs(ix: ReplyIndex, open: number, name: string): ArgsParse {
  const { src } = ix;
  const args: ToolArg[] = [];
  let error: string | undefined;
  let i = skipWs(src, open);
  if (src[i] === ')') return { ok: true, args, end: i + 1 };
  for (;;) {
    i = skipWs(src, i);
    const argN = args.length + 1;
    const stopped = argsStop(ix, i, name);
    if (stopped !== undefined)
      return { ok: false, from: i, error: `${stopped} ${expectedForm(name)}` };
    if (src[i] === ',') {
      error ??= `empty argument ${argN}: remove the extra comma. ${expectedForm(name)}`;
      i += 1;
      continue;
    }
    if (src[i] === ')') return done(args, i + 1, error);

    const value = readValue(src, i, argN);
    if (!value.ok)
      return { ok: false, from: value.from, error: `${value.error} ${expectedForm(name)}` };
    if (value.error !== undefined) error ??= `${value.error} ${expectedForm(name)}`;
    args.push(value.value);
    const valueStart = i;
    i = skipWs(src, value.end);
    if (src[i] === ',') {
      i += 1;
      continue;
    }
    if (src[i] === ')') return done(args, i + 1, error);

    const afterValue = argsStop(ix, i, name);
    if (afterValue !== undefined) {
      return { ok: false, from: i, error: `${afterValue} ${expectedForm(name)}` };
    }
    if (value.isString && containsTag(ix, valueStart, value.end)) {
      // The string closed on a quote that was meant to open a later string, so it ran
      // across a tag: its own closing quote is what is missing. Recover from inside it.
      return {
        ok: false,
        from: valueStart + 1,
        error:
          `argument ${argN} looks like an unterminated string: it runs past a [TOOL] tag ` +
          `(${snippet(src.slice(valueStart, value.end))}). Close each string, and write \\" ` +
          `for a quote inside one. ${expectedForm(name)}`,
      };
    }
    return {
      ok: false,
      from: i,
      error:
        `expected , or ) after argument ${argN} but found ${describeChar(src, i)}. Separate ` +
        `arguments with commas${value.isString ? ', and write \\" for a quote inside a string' : ''}. ` +
        expectedForm(name),
    };
  }
}

function done(args: ToolArg[], end: number, error: string | undefined): ArgsParse {
  return error === undefined ? { ok: true, args, end } : { ok: true, args, end, error };
}

/** Whether a `[TOOL]` or `[/TOOL]` tag starts inside `[from, to)`. */
function containsTag(ix: ReplyIndex, from: number, to: number): boolean {
  return firstAtOrAfter(ix.openTags, from) < to || firstAtOrAfter(ix.closeTags, from) < to;
}
