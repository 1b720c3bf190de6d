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
}

/** What a provider receives: plain chat roles only. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** Sent back only for providers whose quirk settings ask for it. */
  reasoning?: string;
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
