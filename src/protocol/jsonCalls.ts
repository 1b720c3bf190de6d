/**
 * Calls written as JSON, the way function-calling models write them natively:
 * `{"name": "read", "arguments": {"path": "a.md"}}` (Qwen, Hermes, Mistral), with
 * `"parameters"` (Llama), an OpenAI-style `{"type": "function", "function": {…}}`, or an
 * array of these. Also the guess of what a broken one meant, for the corrective error.
 */
import { formatCall } from './format.js';
import { isPlainObject, jsonToArg, namedFromObject, parseJson } from './jsonArgs.js';
import type { NamedArg } from './types.js';

/** One call read from JSON. */
export interface JsonCall {
  name: string;
  named: NamedArg[];
}

export type JsonCallsRead = { ok: true; calls: JsonCall[] } | { ok: false; error: string };

const ARG_KEYS = ['arguments', 'parameters', 'args', 'input'];
const EXTRA_KEYS = new Set(['type', 'id', 'call_id']);
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Whether `v` has the shape of one JSON call (used to tell a call from JSON data). */
export function isCallShape(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  const inner = isPlainObject(v.function) ? v.function : v;
  if (typeof inner.name !== 'string' || !NAME.test(inner.name)) return false;
  const keys = Object.keys(inner).filter((k) => k !== 'name' && !EXTRA_KEYS.has(k));
  return keys.length <= 1 && keys.every((k) => ARG_KEYS.includes(k));
}

/** The calls in a JSON value: one call object or an array of them. */
export function callsFromJson(value: unknown): JsonCallsRead {
  const list = Array.isArray(value) ? value : [value];
  const calls: JsonCall[] = [];
  for (const entry of list) {
    const one = callFromJson(entry);
    if ('error' in one) return { ok: false, error: one.error };
    calls.push(one);
  }
  if (calls.length === 0) return { ok: false, error: 'the list of calls is empty' };
  return { ok: true, calls };
}

function callFromJson(v: unknown): JsonCall | { error: string } {
  if (!isCallShape(v) || !isPlainObject(v)) {
    return { error: 'a JSON call is {"name": "tool", "arguments": {…}}' };
  }
  const inner = isPlainObject(v.function) ? v.function : v;
  const name = String(inner.name);
  const key = ARG_KEYS.find((k) => k in inner);
  let args: unknown = key === undefined ? {} : inner[key];
  // OpenAI sends the arguments as a JSON string; some models copy that.
  if (typeof args === 'string') args = args.trim() === '' ? {} : parseJson(args);
  if (args === null) args = {};
  if (Array.isArray(args))
    return { name, named: args.map((a, k) => ({ name: `#${k}`, value: jsonToArg(a) })) };
  if (!isPlainObject(args)) {
    return {
      error: `the "${key ?? 'arguments'}" of ${name} must be a JSON object of named values`,
    };
  }
  return { name, named: namedFromObject(args) };
}

/** How much of a broken call the guess reads. */
const GUESS_CHARS = 4000;

const NAME_FIELD = /"name"\s*:\s*"([A-Za-z_][\w.-]*)"/;
const VALUE_FIELD =
  /"([A-Za-z_]\w*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/g;

/** The name a broken JSON call seems to have, if any. */
export function guessName(text: string): string | undefined {
  return NAME_FIELD.exec(text)?.[1];
}

/**
 * The canonical form of what a broken JSON call seems to mean: its name and the simple
 * values it holds, in the order written. Only for the error message: it never runs.
 */
export function guessCanonical(text: string, name: string): string {
  const values = [];
  for (const m of text.slice(0, GUESS_CHARS).matchAll(VALUE_FIELD)) {
    if (m[1] === 'name' || m[1] === 'type' || m[1] === 'id') continue;
    const value = jsonToArg(parseJson(m[2] ?? 'null') ?? null);
    // Long content is shortened: the message shows the form, not the whole text again.
    values.push(typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  return `[TOOL] ${formatCall(name, values)} [/TOOL]`;
}
