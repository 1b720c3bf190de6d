/**
 * Places a call's named and bare-word arguments onto the tool's parameters, once the tool is
 * known. The parser alone cannot: `read(path="a.md")` needs read's parameter order, and
 * `read(notes.md)` is unambiguous only where the tool takes a string. The result is a call
 * with positional arguments (its canonical form), or a malformed item that says what to fix.
 */
import type { ToolArg, ToolParam } from '../tools/types.js';
import { formatCall } from './format.js';
import { nativeExample } from './functionCalls.js';
import type { CallItem, NamedArg, ParsedCall } from './types.js';

/** What resolution needs of a tool. */
export interface ToolShape {
  readonly params: readonly ToolParam[];
  /** Present on tools that check their own arguments (MCP): they take one JSON object string. */
  readonly checkArgs?: unknown;
}

/** The canonical form of a call, as the model should write it. */
export function canonicalCall(name: string, args: readonly ToolArg[]): string {
  return `[TOOL] ${formatCall(name, args)} [/TOOL]`;
}

/**
 * The call with every argument in its place. `tool` undefined (an unknown name): named
 * values are appended in order, so the registry's "unknown tool" error is what comes back.
 */
export function resolveCall(item: CallItem, tool: ToolShape | undefined): CallItem {
  if (item.type !== 'call') return item;
  const named = item.named ?? [];
  if (named.length === 0 && (item.bare ?? []).length === 0) return item;
  const notes = [...(item.readAs ?? [])];
  if ((item.bare ?? []).length > 0 || named.some((n) => n.bare === true)) notes.push('a bare word');
  const done = (args: ToolArg[]): CallItem => {
    const { named: _n, bare: _b, ...rest } = item;
    return { ...rest, args, readAs: [...new Set(notes)] };
  };
  if (tool === undefined) return done([...item.args, ...named.map((n) => n.value)]);
  if (tool.params.length === 0 && tool.checkArgs !== undefined && named.length > 0) {
    // An MCP tool's arguments are one JSON object string.
    if (item.args.length > 0) return fail(item, 'pass either values in order or names, not both');
    return done([JSON.stringify(Object.fromEntries(named.map((n) => [n.name, n.value])))]);
  }
  const placed = place(item, named, tool.params);
  if (typeof placed === 'string') return fail(item, placed, tool.params);
  const wrongBare = firstWrongBare(item, placed.bareAt, tool.params, placed.args);
  if (wrongBare !== undefined) return fail(item, wrongBare.problem, tool.params, wrongBare.example);
  return done(placed.args);
}

/** The positional arguments with the named ones placed, or what went wrong. */
function place(
  item: ParsedCall,
  named: readonly NamedArg[],
  params: readonly ToolParam[],
): { args: ToolArg[]; bareAt: number[] } | string {
  const args: (ToolArg | undefined)[] = [...item.args];
  const bareAt = [...(item.bare ?? [])];
  for (const n of named) {
    const index = paramIndex(n.name, params);
    if (index === -1) {
      return `${item.name} has no parameter "${n.name}". Its parameters are ${paramList(params)}.`;
    }
    if (args[index] !== undefined) {
      return `${params[index]?.name ?? n.name} is given twice (by position and by name).`;
    }
    args[index] = n.value;
    if (n.bare === true) bareAt.push(index);
  }
  let last = args.length;
  while (last > 0 && args[last - 1] === undefined) last -= 1;
  // A gap stands for an omitted optional parameter, which the protocol writes as null.
  return { args: Array.from(args.slice(0, last), (a) => a ?? null), bareAt };
}

/** `#2` (a JSON array's element) is position 2; otherwise the name, then case-insensitively. */
function paramIndex(name: string, params: readonly ToolParam[]): number {
  if (/^#\d+$/.test(name)) return Number(name.slice(1));
  const exact = params.findIndex((p) => p.name === name);
  if (exact !== -1) return exact;
  return params.findIndex((p) => p.name.toLowerCase() === name.toLowerCase());
}

/** The first bare word placed on a parameter that is not a string, as an error with a fix. */
function firstWrongBare(
  item: ParsedCall,
  bareAt: readonly number[],
  params: readonly ToolParam[],
  args: readonly ToolArg[],
): { problem: string; example: ToolArg[] } | undefined {
  for (const index of bareAt) {
    const param = params[index];
    if (param === undefined || param.type === 'string') continue;
    const word = String(args[index]);
    const sample = param.type === 'number' ? 5 : true;
    const problem =
      `argument ${index + 1} (${param.name}) of ${item.name} is a ${param.type}, but it is ` +
      `the bare word ${word}: write ${param.type === 'number' ? 'a number like 5' : 'true or false'}.`;
    return { problem, example: args.map((a, k) => (k === index ? sample : a)) };
  }
  return undefined;
}

function paramList(params: readonly ToolParam[]): string {
  return params.length === 0 ? 'none' : params.map((p) => p.name).join(', ');
}

/** The malformed item for a call whose arguments could not be placed. */
function fail(
  item: ParsedCall,
  problem: string,
  params: readonly ToolParam[] = [],
  args?: readonly ToolArg[],
): CallItem {
  const example =
    args ??
    params.filter((p) => p.optional !== true).map((p) => (p.type === 'string' ? p.name : 1));
  // A native call is shown the JSON object it should have sent, not the text protocol.
  const expected =
    item.native === undefined
      ? canonicalCall(item.name, example)
      : nativeExample(
          item.name,
          params.map((p) => p.name),
        );
  return {
    type: 'malformed',
    name: item.name,
    raw: item.raw,
    start: item.start,
    end: item.end,
    error: `${problem} Expected: ${expected}`,
    ...(item.native !== undefined ? { native: item.native } : {}),
  };
}

/**
 * The line put before a result when the call was not written in the canonical form: how it
 * was read, so the model learns the form that always works. Undefined for canonical calls.
 */
export function readAsNote(item: CallItem): string | undefined {
  if (item.type !== 'call' || item.readAs === undefined || item.readAs.length === 0)
    return undefined;
  return (
    `note: written with ${item.readAs.join(', ')}; read as ` +
    `${canonicalCall(item.name, item.args)}, the form to use.`
  );
}
