import type { Lang, Phrase } from '../i18n/messages.js';
import type { ToolError, ToolErrorKind } from './toolError.js';
import type { Workspace } from './workspace.js';

import { APPROVAL_POLICIES, TOOL_KINDS } from '../config/defaults.js';

export { APPROVAL_POLICIES, TOOL_KINDS };
// Here as well, so a tool takes all its types from one place; their own file lets the
// workspace (which the tool context names) use them without a circle.
export type { ToolError, ToolErrorKind } from './toolError.js';

/** What a tool does to the world; the approval policy is set per kind. */
export type ToolKind = (typeof TOOL_KINDS)[number];

/** A value the text protocol can carry. */
export type ToolArg = string | number | boolean | null;

/**
 * A tool's outcome. `data` is what the model sees (stringified if not a string);
 * `display` is an optional one-line summary for the tool log.
 */
export type ToolResult =
  | {
      ok: true;
      data: unknown;
      display?: string;
      /** For a journaled change: the command that reverts it, e.g. `/undo notes.md`. */
      undo?: string;
      /** For the screen, not the model: the unified diff of the change (an edit, an overwrite). */
      diff?: string;
      /**
       * This result is content from outside although the tool's other results are not: a
       * document `read` extracted (a PDF or a photo can carry instructions). It reaches the
       * model wrapped as data, as an {@link Tool.untrustedOutput} tool's results do.
       */
      untrusted?: boolean;
      /**
       * The instruction files of the subfolders this call touched first (src/instructions):
       * appended after the result as the user's words, outside any data wrapping, and not cut
       * by the result budget (they are held to their own).
       */
      instructions?: string;
    }
  | { ok: false; error: ToolError };

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
  /** Where the call comes from, for the change journal (absent outside a turn). */
  change?: ChangeContext;
  /**
   * Removes configured secrets from text. A tool that shortens what it read (grep cuts long
   * lines) calls it before cutting, so a cut cannot leave a piece of a key behind.
   */
  redact?(text: string): string;
  /** The screen's language: approval reasons a tool writes are put in it (default English). */
  lang?: Lang;
}

/** The turn, reply and position of a call, so a journaled change can be matched to its result. */
interface ChangeContext {
  /**
   * The turn the call belongs to: the id of its first reply with calls. A turn's tool chain
   * (several replies) is one group for /changes and /undo.
   */
  turn: string;
  /** The id of the assistant message holding the call (absent: the same as `turn`). */
  reply?: string;
  /** What started the turn: `user` (an answer), or an autonomous one (`timer`, `change`, `schedule`, `resume`). */
  trigger: string;
  /** The call's index among the reply's calls. */
  callIndex: number;
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
   * Where the arguments go when that is fixed (an MCP server), for the approval reason;
   * unset, the arguments name their own destination (a URL) and go "off the machine".
   * A fixed destination also counts text sent exactly as it was read: it is no link.
   */
  readonly sendsTo?: string;
  /** `sendsTo` as a phrase, so the approval card names the destination in its language. */
  readonly sendsToPhrase?: Phrase;
  /**
   * Runs the call. Args have already been checked for arity and type against `params`.
   * May throw: the registry turns a throw into `{ ok: false, error: { kind: 'unknown' } }`.
   */
  run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult>;
  /**
   * Optional: decides whether a call of a normally auto-approved kind must still ask
   * (e.g. `create` over an existing file). Return a reason to ask, or undefined; or an
   * {@link ApprovalNeed} to also show what will really happen on the card. It is consulted
   * under every policy, so its `detail` reaches the card even when the kind always asks.
   */
  needsApproval?(
    args: readonly ToolArg[],
    ctx: ToolContext,
  ): Promise<string | ApprovalNeed | undefined>;
  /**
   * Optional: checks the arguments instead of the registry's arity and type check against
   * `params` (tools whose inputs are a JSON Schema, such as MCP tools). Returns the error the
   * model should see, or undefined when the call is well formed.
   */
  checkArgs?(args: readonly ToolArg[]): ToolError | undefined;
  /** Optional: the call shape shown to the model, when `params` cannot express it. */
  readonly signature?: string;
  /**
   * Optional: the inputs as a JSON Schema object, when `params` cannot express them (MCP
   * tools): sent as the tool's schema when calls are native (`toolCalls: "native"`).
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /**
   * Optional: the policy for this tool given its kind's policy (configured per tool or per
   * source, e.g. an untrusted MCP server asks). `reason` is shown when it asks or denies.
   */
  approvalPolicy?(
    kindPolicy: ToolApprovalPolicy,
    lang?: Lang,
  ): { policy: ToolApprovalPolicy; reason?: string };
}

/** A tool's own view of a call that the user should see before it runs. */
export interface ApprovalNeed {
  /** Why this call must ask; undefined when only the kind's policy would ask. */
  reason?: string;
  /** What will actually happen: the exact content written, the command line run. */
  detail?: string;
  /** `diff`: the detail is a unified diff against the file as it is (the card colours it). */
  detailKind?: 'text' | 'diff';
  /** Ask every time: an earlier "always" for this tool does not cover it. */
  everyTime?: boolean;
}

/** The approval policy of a call: run it, ask the user first, or refuse it. */
export type ToolApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

export const ok = (data: unknown, display?: string): ToolResult =>
  display === undefined ? { ok: true, data } : { ok: true, data, display };

/** A success that also carries the unified diff of the change, for the tool detail. */
export const okWithDiff = (data: unknown, display: string, diff: string | undefined): ToolResult =>
  diff === undefined ? { ok: true, data, display } : { ok: true, data, display, diff };

export const fail = (kind: ToolErrorKind, message: string, outside?: string): ToolResult => ({
  ok: false,
  error: outside === undefined ? { kind, message } : { kind, message, outside },
});
