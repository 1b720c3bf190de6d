/**
 * JSON in tool calls: models trained on function calling write the arguments as one JSON
 * object (`read({"path": "a.md"})`, `<tool_call>{"name": …, "arguments": {…}}`). These
 * helpers find where such a value ends and turn its keys into named arguments.
 */
import type { ToolArg } from '../tools/types.js';
import type { NamedArg } from './types.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The end (exclusive) of the JSON object or array whose bracket is at `i`, found by bracket
 * depth outside strings; -1 when it does not close before `limit`. Linear in what it reads.
 */
export function scanJsonEnd(src: string, i: number, limit = src.length): number {
  let depth = 0;
  let j = i;
  const stop = Math.min(limit, src.length);
  while (j < stop) {
    const c = src.charCodeAt(j);
    if (c === QUOTE) {
      j += 1;
      while (j < stop && src.charCodeAt(j) !== QUOTE) j += src.charCodeAt(j) === BACKSLASH ? 2 : 1;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth === 0) return j + 1;
    }
    j += 1;
  }
  return -1;
}

/** Where each top-level element of the JSON array opened at `open` starts (objects and arrays). */
export function arrayElementStarts(src: string, open: number, end: number): number[] {
  const starts: number[] = [];
  let j = open + 1;
  while (j < end) {
    while (j < end && /[\s,]/.test(src[j] ?? '')) j += 1;
    if (j >= end || src[j] === ']') break;
    starts.push(j);
    const next = src[j] === '{' || src[j] === '[' ? scanJsonEnd(src, j, end) : -1;
    if (next === -1) break;
    j = next;
  }
  return starts;
}

/** `JSON.parse`, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * One JSON value as a protocol argument: strings, numbers, booleans and null as they are;
 * an array or object as its JSON text, which is what the protocol asks models to write
 * for one (a quoted JSON string).
 */
export function jsonToArg(v: unknown): ToolArg {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return JSON.stringify(v) ?? null;
}

/** The keys of a JSON object as named arguments, in the order written. */
export function namedFromObject(obj: Record<string, unknown>): NamedArg[] {
  return Object.entries(obj).map(([name, value]) => ({ name, value: jsonToArg(value) }));
}

/** Reads the JSON object argument at `i` (`read({"path": "a.md"})`) up to `limit`. */
export function readJsonObject(
  src: string,
  i: number,
  argN: number,
  limit: number,
): { ok: true; fields: NamedArg[]; end: number } | { ok: false; error: string; from: number } {
  const end = scanJsonEnd(src, i, limit);
  const value = end === -1 ? undefined : parseJson(src.slice(i, end));
  if (isPlainObject(value)) return { ok: true, fields: namedFromObject(value), end };
  return {
    ok: false,
    from: i,
    error:
      `argument ${argN} starts with { but is not a JSON object (keys and strings in "double ` +
      `quotes", no trailing comma). Pass values in order instead, e.g. name("value", 2).`,
  };
}
