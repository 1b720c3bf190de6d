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
import type { ValueRead } from './valueRead.js';
import { LOOKALIKES, describeChar, expectedForm, snippet } from './messages.js';
import { CLOSE_TAG, OPEN_TAG, firstAtOrAfter, tagAt, type ReplyIndex } from './replyIndex.js';
import type { CallItem, MalformedCall, NamedArg, ParsedCall } from './types.js';

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

/** A `name(args)` that could be read (`error` set: read to its end, but not runnable). */
export interface CallBody {
  ok: true;
  name: string;
  args: ToolArg[];
  named: NamedArg[];
  bare: number[];
  /** Non-canonical forms that were read (see ParsedCall.readAs). */
  notes: string[];
  /** Just past the closing `)`. */
  end: number;
  error?: string;
}

export type CallRead = CallBody | { ok: false; error: string; from: number; name?: string };

/** Parses the call whose `[TOOL]` tag starts at `start`. Never throws. */
export function parseCallAt(ix: ReplyIndex, start: number): CallParse {
  const { src } = ix;
  const i = skipWs(src, start + OPEN_TAG.length);
  if (i >= src.length || tagAt(src, i) !== undefined || i === ix.waitAt || src[i] === '(') {
    const error = `empty [TOOL] block: write the tool's name right after [TOOL]. ${expectedForm()}`;
    return recover(ix, start, i, error);
  }
  const body = readCall(ix, i);
  if (!body.ok) return recover(ix, start, body.from, body.error, body.name);
  const after = skipWs(src, body.end);
  if (tagAt(src, after) === 'close') {
    const end = after + CLOSE_TAG.length;
    return { item: callItem(body, src, start, end), resume: end };
  }
  if (after >= src.length && body.error === undefined) {
    // The call is complete and nothing follows: the closing tag is all that is missing.
    const end = src.trimEnd().length;
    const noted = { ...body, notes: [...body.notes, 'without [/TOOL]'] };
    return { item: callItem(noted, src, start, end), resume: src.length };
  }
  const error = `${afterCallError(ix, after, body.name)} ${expectedForm(body.name)}`;
  return recover(ix, start, after, error, body.name);
}

/** The item for a call read from `start` to `end`: runnable unless its body had an error. */
export function callItem(body: CallBody, src: string, start: number, end: number): CallItem {
  const raw = src.slice(start, end);
  const { name } = body;
  if (body.error !== undefined)
    return { type: 'malformed', name, raw, start, end, error: body.error };
  const item: ParsedCall = { type: 'call', name, args: body.args, raw, start, end };
  if (body.named.length > 0) item.named = body.named;
  if (body.bare.length > 0) item.bare = body.bare;
  if (body.notes.length > 0) item.readAs = [...new Set(body.notes)];
  return item;
}

/** Reads `name(args)` with the name at `i`. Never throws. */
export function readCall(ix: ReplyIndex, i: number): CallRead {
  const { src } = ix;
  NAME.lastIndex = i;
  const name = NAME.exec(src)?.[0];
  const afterName = i + (name?.length ?? 0);
  if (name !== undefined && LOOKALIKES[src[afterName] ?? ''] !== undefined) {
    const error =
      `${snippet(src[afterName] ?? '')} after ${name} is a full-width character: write the ` +
      `protocol's ASCII ( ) , and quotes instead. ${expectedForm(name)}`;
    return { ok: false, from: afterName, error, name };
  }
  if (name === undefined || /[^\s()[\]"',;]/.test(src[afterName] ?? ' ')) {
    const token = /^[^\s(]*/.exec(src.slice(i, i + 40))?.[0] ?? '';
    const error =
      `invalid tool name ${snippet(token)}: a name starts with a letter or _ and uses only ` +
      `letters, digits, _ . and -. ${expectedForm()}`;
    return { ok: false, from: i, error };
  }
  const open = skipWs(src, afterName);
  if (src[open] !== '(') {
    const error =
      `missing parentheses after ${name}: put the arguments inside ( ), and write ` +
      `${name}() when there are none. ${expectedForm(name)}`;
    return { ok: false, from: open, error, name };
  }
  const parsed = parseArgs(ix, open + 1, name);
  return parsed.ok ? { ...parsed, name } : { ...parsed, name };
}

type ArgsParse =
  (Omit<CallBody, 'name'> & { ok: true }) | { ok: false; error: string; from: number };

/** Parses the argument list from just after `(` through the closing `)`. */
function parseArgs(ix: ReplyIndex, open: number, name: string): ArgsParse {
  const { src } = ix;
  const got: Omit<CallBody, 'name' | 'end' | 'ok'> = { args: [], named: [], bare: [], notes: [] };
  const jsonLimit = Math.min(firstAtOrAfter(ix.openTags, open), src.length);
  let i = skipWs(src, open);
  if (src[i] === ')') return done(got, i + 1);
  for (;;) {
    i = skipWs(src, i);
    const argN = got.args.length + got.named.length + 1;
    const stopped = argsStop(ix, i, name);
    if (stopped !== undefined)
      return { ok: false, from: i, error: `${stopped} ${expectedForm(name)}` };
    if (src[i] === ',') {
      got.error ??= `empty argument ${argN}: remove the extra comma. ${expectedForm(name)}`;
      i += 1;
      continue;
    }
    if (src[i] === ')') return done(got, i + 1);

    const value = readValue(src, i, argN, true, jsonLimit);
    if (!value.ok)
      return { ok: false, from: value.from, error: `${value.error} ${expectedForm(name)}` };
    if (value.error !== undefined) got.error ??= `${value.error} ${expectedForm(name)}`;
    const problem = place(got, value, argN);
    if (problem !== undefined) got.error ??= `${problem} ${expectedForm(name)}`;
    const valueStart = i;
    i = skipWs(src, value.end);
    if (src[i] === ',') {
      i += 1;
      continue;
    }
    if (src[i] === ')') return done(got, i + 1);

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

/** Adds one value to the call: by position, by name, or all of a JSON object's keys. */
function place(
  got: Omit<CallBody, 'name' | 'end' | 'ok'>,
  value: Extract<ValueRead, { ok: true }>,
  argN: number,
): string | undefined {
  if (value.note !== undefined) got.notes.push(value.note);
  if (value.fields !== undefined) {
    if (got.args.length > 0 || got.named.length > 0) {
      return `argument ${argN} is a JSON object: pass either one object with all the arguments, or values in order.`;
    }
    got.named.push(...value.fields);
    got.notes.push('a JSON object of arguments');
    return undefined;
  }
  if (value.key !== undefined) {
    if (got.named.some((n) => n.name === value.key)) {
      return `argument ${value.key} is given twice: give each argument once.`;
    }
    got.named.push(
      value.bare === true
        ? { name: value.key, value: value.value, bare: true }
        : { name: value.key, value: value.value },
    );
    got.notes.push('keyword arguments');
    return undefined;
  }
  if (got.named.length > 0) {
    return `argument ${argN} has no name but follows a named one: put values in order first, or name them all.`;
  }
  if (value.bare === true) got.bare.push(got.args.length);
  got.args.push(value.value);
  return undefined;
}

function done(got: Omit<CallBody, 'name' | 'end' | 'ok'>, end: number): ArgsParse {
  return { ok: true, ...got, end };
}

/** Whether a `[TOOL]` or `[/TOOL]` tag starts inside `[from, to)`. */
function containsTag(ix: ReplyIndex, from: number, to: number): boolean {
  return firstAtOrAfter(ix.openTags, from) < to || firstAtOrAfter(ix.closeTags, from) < to;
}
