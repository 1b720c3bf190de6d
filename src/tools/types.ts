import type { Workspace } from './workspace.js';

/** What a tool does to the world; the approval policy is set per kind. */
export type ToolKind = 'read' | 'write' | 'destructive' | 'network' | 'process';

/** A value the text protocol can carry. */
export type ToolArg = string | number | boolean | null;

export type ToolErrorKind =
  | 'invalid_args' // wrong arity or type; the model should fix the call
  | 'outside_workspace' // the path escapes the workspace
  | 'not_found'
  | 'exists' // would overwrite
  | 'too_large'
  | 'binary'
  | 'denied' // approval denied or policy deny
  | 'aborted'
  | 'timeout'
  | 'network'
  | 'unsupported' // e.g. platform without this capability
  | 'io'
  | 'unknown';

export interface ToolError {
  kind: ToolErrorKind;
  message: string;
}

/**
 * A tool's outcome. `data` is what the model sees (stringified if not a string);
 * `display` is an optional one-line summary for the tool log.
 */
export type ToolResult =
  { ok: true; data: unknown; display?: string } | { ok: false; error: ToolError };

export interface ToolParam {
  name: string;
  type: 'string' | 'number' | 'boolean';
  optional?: boolean;
  description: string;
}

export interface ToolContext {
  workspace: Workspace;
  /** The turn's signal: a tool must stop promptly when it aborts. */
  signal: AbortSignal;
  /**
   * Removes configured secrets from text. A tool that shortens what it read (grep cuts long
   * lines) calls it before cutting, so a cut cannot leave a piece of a key behind.
   */
  redact?(text: string): string;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolKind;
  readonly params: readonly ToolParam[];
  /**
   * The result is content from outside (a web page, a search engine, an MCP server): it is
   * handed to the model wrapped as data, with chat-template control tokens removed.
   */
  readonly untrustedOutput?: boolean;
  /**
   * The call sends its arguments off the machine although its kind is not `network` (browse
   * hands a URL to the browser): workspace data or a secret in them needs approval.
   */
  readonly carriesDataOut?: boolean;
  /**
   * Runs the call. Args have already been checked for arity and type against `params`.
   * May throw: the registry turns a throw into `{ ok: false, error: { kind: 'unknown' } }`.
   */
  run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult>;
  /**
   * Optional: decides whether a call of a normally auto-approved kind must still ask
   * (e.g. `create` over an existing file). Return a reason to ask, or undefined.
   */
  needsApproval?(args: readonly ToolArg[], ctx: ToolContext): Promise<string | undefined>;
}

export const ok = (data: unknown, display?: string): ToolResult =>
  display === undefined ? { ok: true, data } : { ok: true, data, display };

export const fail = (kind: ToolErrorKind, message: string): ToolResult => ({
  ok: false,
  error: { kind, message },
});
