/**
 * The conversation as Cogito keeps it. `tool` messages are our own role: they hold the
 * results of the tool calls of the previous assistant reply and go to the model as a
 * user-role message (the text protocol has no native tool role).
 */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface HistoryMessage {
  /** Unique, sortable id (time-based). */
  readonly id: string;
  readonly role: Role;
  readonly content: string;
  /** The model's reasoning for an assistant message, kept for display and traces. */
  readonly reasoning?: string;
  /** An assistant reply cut short by the user's interrupt. */
  readonly interrupted?: boolean;
  /** An assistant reply cut short by an error (a dropped connection, a stall). */
  readonly failed?: boolean;
  /** A summary of older messages produced by compression. */
  readonly summary?: boolean;
  /**
   * On an assistant reply saved before its tools ran: how many calls it holds. Each result
   * is then saved as its own `tool` message with `callIndex`, so after a crash the next
   * start can tell which results never came back.
   */
  readonly calls?: number;
  /** On a `tool` message holding one call's result: the call's index in its reply. */
  readonly callIndex?: number;
  /** On a `tool` message: the id of the call it answers (`ReplyCall.id` in its reply's parts). */
  readonly callId?: string;
  /**
   * On an assistant reply: the reply parsed once, where the turn read it (or, for a session
   * saved before parts were kept, once when it was loaded). Everything after the turn (the
   * screen, the ledger, crash recovery) reads these; `content` stays the raw text, because
   * it is what the model is sent back.
   */
  readonly parts?: ReplyParts;
  /**
   * On a `tool` message: each result it holds, as the screen shows it (the call and whether
   * it succeeded), so nothing has to parse `content` (the text the model is sent) back.
   * The body is not repeated here: the tool log and `content` have it.
   */
  readonly results?: readonly ResultSummary[];
  /** For a reply of an autonomous (timer) turn: its cycle number, shown above it. */
  readonly cycle?: number;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** One tool result as the conversation shows it: `✓ ls(".")`. */
export interface ResultSummary {
  /** The call in protocol syntax, without the tags: `ls(".")`. */
  readonly call: string;
  readonly ok: boolean;
  /**
   * How the tool log showed the call when it ran, so a restart rebuilds the same entry
   * (denied is not failed, the arguments, the one-line result, the time it took). Absent in
   * sessions saved before it was kept: those rebuild from `call` and `ok` alone.
   */
  readonly shown?: ShownResult;
}

/** A finished call as the tool log showed it (see `ToolLogEntry`, whose fields these are). */
export interface ShownResult {
  readonly status: 'ok' | 'error' | 'denied' | 'skipped';
  readonly args: readonly PartArg[];
  readonly summary?: string;
  readonly durationMs?: number;
  /** The tool's error kind (`ToolErrorKind`). */
  readonly errorKind?: string;
  readonly undo?: string;
}

/** A value of a call's argument, as the protocol writes it. */
export type PartArg = string | number | boolean | null;

/** A stretch of a reply's own text (as written, Markdown and all). */
export interface ReplyText {
  readonly type: 'text';
  readonly text: string;
}

/** One tool call of a reply, as the model wrote it and as it was read. */
export interface ReplyCall {
  readonly type: 'call';
  /** `<reply id>#<index>`: the `tool` message answering it carries the same `callId`. */
  readonly id: string;
  /** Its place among the reply's calls, from 0 (the answer's `callIndex`). */
  readonly index: number;
  /** The call as written, tags and all. */
  readonly raw: string;
  /** The tool's name, when it could be read. */
  readonly name?: string;
  /** Positional arguments, and arguments given by name (placed on the tool when it runs). */
  readonly args?: readonly PartArg[];
  readonly named?: readonly { readonly name: string; readonly value: PartArg }[];
  /** Why the call could not be read: it was answered with this error, not run. */
  readonly error?: string;
  /**
   * A native function call (the server's `tool_calls`): the server's own id and arguments
   * as sent, so the call and its result go back in the form the server expects.
   */
  readonly native?: NativeCallRef;
}

/**
 * What a native call keeps of the server's: its id and its arguments' JSON text as it is
 * sent back (`{}` for arguments that were not a JSON object; `raw` keeps what came).
 */
export interface NativeCallRef {
  readonly id: string;
  readonly arguments: string;
}

/** One native function call as a server sent it (assembled from its streamed pieces). */
export interface NativeToolCall {
  /** The server's id (`call_…`); one is made up (`call_<index>`) when the server sent none. */
  readonly id: string;
  readonly name: string;
  /** The arguments' JSON text, as sent (not yet parsed: it may be malformed). */
  readonly arguments: string;
}

/** A tool offered to a server as a JSON schema (`tools` of a chat-completions request). */
export interface FunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

export type ReplyPart = ReplyText | ReplyCall;

/** A reply in parts: its text and calls in order, `[WAIT]` and the text as shown. */
export interface ReplyParts {
  /** Text and calls in reply order; empty stretches of text are left out. */
  readonly items: readonly ReplyPart[];
  /** The reply ended with `[WAIT]` (not part of any text item). */
  readonly wait: boolean;
  /** Set when more calls followed than a reply may make: how many (the last text holds them). */
  readonly moreCalls?: number;
}

/**
 * What one streamed piece of a reply changed in its parts, as the turn's reader gives it
 * (the `message_update` event): a reader of the events keeps the settled parts and joins the
 * tail after them ({@link joinParts}), so it draws what the turn read and parses nothing.
 * Only what changed travels, so a long reply costs its unsettled tail per piece, not itself.
 */
export interface PartsUpdate {
  /** Parts that can no longer change, to append after those settled before. */
  readonly settled: readonly ReplyPart[];
  /** The parts of the text after all settled ones, as read so far (replacing the last tail). */
  readonly tail: readonly ReplyPart[];
  /** The text read so far ends with `[WAIT]`. */
  readonly wait: boolean;
}

/** `a` then `b`, a stretch of text across the seam made one again (as one parse reads it). */
export function joinParts(a: readonly ReplyPart[], b: readonly ReplyPart[]): ReplyPart[] {
  const last = a[a.length - 1];
  const first = b[0];
  if (last?.type === 'text' && first?.type === 'text') {
    return [...a.slice(0, -1), { type: 'text', text: last.text + first.text }, ...b.slice(1)];
  }
  return [...a, ...b];
}

/**
 * What a provider receives: plain chat roles, plus the `tool` role only for the results of
 * native calls (each right after the assistant message that carries its call).
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Sent back only for providers whose quirk settings ask for it. */
  reasoning?: string;
  /** On an assistant message: the native calls it made, sent back as `tool_calls`. */
  toolCalls?: NativeToolCall[];
  /** On a `tool` message: the server's id of the call it answers. */
  toolCallId?: string;
}

let lastStamp = 0;
let counter = 0;

/** A time-ordered id: `<ms base36>-<counter base36>`, unique within the process. */
export function newMessageId(now: number = Date.now()): string {
  if (now === lastStamp) counter += 1;
  else {
    lastStamp = now;
    counter = 0;
  }
  return `${now.toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

export function makeMessage(
  role: Role,
  content: string,
  extra: Partial<Omit<HistoryMessage, 'id' | 'role' | 'content'>> = {},
): HistoryMessage {
  const at = extra.at ?? Date.now();
  return { id: newMessageId(at), role, content, ...extra, at };
}
