/**
 * What the tool-protocol parser produces. Offsets are UTF-16 indices into the reply;
 * `end` is exclusive, and `raw` is always `reply.slice(start, end)`.
 */
import type { NativeCallRef } from '../core/messages.js';
import type { ToolArg } from '../tools/types.js';

/** An argument given by name: `path="a.md"`, or a key of a JSON object. */
export interface NamedArg {
  name: string;
  value: ToolArg;
  /** Written as a bare word (`path=notes.md`): accepted only for a string parameter. */
  bare?: boolean;
}

/**
 * A call that could be read: a `[TOOL] name(args) [/TOOL]` block, or one of the other forms
 * models write (see nativeCalls.ts). Arity and tool existence are unchecked; `named` and
 * `bare` wait for the tool's parameters (resolve.ts) before the call can run.
 */
export interface ParsedCall {
  type: 'call';
  name: string;
  /** Positional arguments. */
  args: ToolArg[];
  /** Arguments by name, placed onto the tool's parameters by resolve.ts. */
  named?: NamedArg[];
  /** Indices into `args` written as bare words (`read(notes.md)`). */
  bare?: number[];
  /**
   * How a form other than the canonical one was read ("keyword arguments", "Qwen/Hermes
   * <tool_call> JSON"…), so the model can be shown the canonical form; absent when canonical.
   */
  readAs?: string[];
  raw: string;
  start: number;
  end: number;
  /** A native function call (the server's `tool_calls`): its id and arguments as sent. */
  native?: NativeCallRef;
}

/** A block that starts with `[TOOL]` but breaks the grammar; `error` is written for the model. */
export interface MalformedCall {
  type: 'malformed';
  /** The tool's name, when it could be read. */
  name?: string;
  raw: string;
  start: number;
  end: number;
  error: string;
  /** A native function call that could not be read: it is still answered by its id. */
  native?: NativeCallRef;
}

export type CallItem = ParsedCall | MalformedCall;

/** A whole reply, split into calls and display text. */
export interface ParsedReply {
  /** Calls and malformed calls, in reply order. */
  items: CallItem[];
  /** The reply ends with `[WAIT]` (last non-whitespace thing, outside code). */
  wait: boolean;
  /** The reply without its `[TOOL]…[/TOOL]` blocks and trailing `[WAIT]`, trimmed, for display. */
  text: string;
  /**
   * Set when the parse stopped at `maxItems`: how many more `[TOOL]` tags follow (counted,
   * not parsed, so tags inside code or strings are included). `wait` is then false.
   */
  moreCalls?: number;
  /**
   * Where a growing reply may be cut and read on from: the start of the last line after a
   * blank line that the scan reached in plain text (no code, call or span open across it,
   * no `[WAIT]` and no malformed call before it). What lies before it reads the same however the reply goes on,
   * so a reader of a streaming reply parses only from there (streamingParts.ts). Absent
   * when there is none.
   */
  settled?: number;
}
