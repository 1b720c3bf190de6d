/**
 * A server's native function calls (`tool_calls`) as the same items the `[TOOL]` reader
 * makes, so they run under the same rules (resolver, approval, journal, undo) and are saved
 * and shown alike. Each keeps the server's id and arguments, to be sent back as they came.
 *
 * Arguments that are not one JSON object become a malformed item whose error says what to
 * send instead: like a text near miss, it is answered to the model, never dropped. An unknown
 * name or arguments that fit no parameter are told by the resolver and the registry, as for
 * text calls.
 */
import type { NativeToolCall } from '../core/messages.js';
import { isPlainObject, namedFromObject, parseJson } from './jsonArgs.js';
import type { CallItem, ParsedReply } from './types.js';

/** The parameter names of a tool, to show a call that fits (undefined: unknown tool). */
export type ParamNames = (tool: string) => readonly string[] | undefined;

/** A native call as its JSON form shows it: `read({"path":"a.md"})`. */
export function nativeCallText(name: string, args: string): string {
  return `${name}(${args.trim() === '' ? '{}' : args})`;
}

/** The JSON object a call of `tool` takes, as an example: `{"path": "…"}`. */
export function nativeExample(tool: string, params: readonly string[] | undefined): string {
  const keys = params ?? [];
  const body = keys.map((k) => `"${k}": …`).join(', ');
  return `${tool}({${body}})`;
}

/**
 * The items of a reply's native calls, placed at `at` (the end of the reply's text: they
 * follow what the text holds). `params` names each tool's parameters for the fix.
 */
export function nativeCallItems(
  calls: readonly NativeToolCall[],
  at: number,
  params: ParamNames = () => undefined,
): CallItem[] {
  return calls.map((call) => itemOf(call, at, params));
}

function itemOf(call: NativeToolCall, at: number, params: ParamNames): CallItem {
  const text = call.arguments.trim();
  const value = text === '' ? {} : parseJson(text);
  // Arguments that are not a JSON object are sent back as `{}`: servers parse them when they
  // render the history, and one that cannot answers 400. `raw` and the error keep what came.
  const native = { id: call.id, arguments: isPlainObject(value) ? call.arguments : '{}' };
  const raw = nativeCallText(call.name, call.arguments);
  const where = { raw, start: at, end: at, native };
  const name = call.name.trim();
  if (name === '') {
    const error =
      'a function call came without a tool name, so it was not run. Call one of the tools ' +
      'you were given by its name, with its arguments as one JSON object.';
    return { type: 'malformed', ...where, error };
  }
  if (!isPlainObject(value)) {
    const problem =
      value === undefined
        ? 'are not valid JSON (keys and strings in "double quotes", no trailing comma; the reply may have been cut off)'
        : 'must be one JSON object';
    const error =
      `the arguments of ${name} ${problem}, so it was not run. ` +
      `Expected: ${nativeExample(name, params(name))}`;
    return { type: 'malformed', ...where, name, error };
  }
  const named = namedFromObject(value);
  return { type: 'call', ...where, name, args: [], ...(named.length > 0 ? { named } : {}) };
}

/**
 * The reply as read, with its native calls after what its text holds: one list of calls, so
 * they are numbered, run, saved and answered like the text's own.
 */
export function withNativeCalls(
  parsed: ParsedReply,
  reply: string,
  calls: readonly NativeToolCall[] | undefined,
  params?: ParamNames,
): ParsedReply {
  if (calls === undefined || calls.length === 0) return parsed;
  return { ...parsed, items: [...parsed.items, ...nativeCallItems(calls, reply.length, params)] };
}
