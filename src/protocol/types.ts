/**
 * What the tool-protocol parser produces. Offsets are UTF-16 indices into the reply;
 * `end` is exclusive, and `raw` is always `reply.slice(start, end)`.
 */
import type { ToolArg } from '../tools/types.js';

/** A well-formed `[TOOL] name(args) [/TOOL]` block. Arity and tool existence are unchecked. */
export interface ParsedCall {
  type: 'call';
  name: string;
  args: ToolArg[];
  raw: string;
  start: number;
  end: number;
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
}
