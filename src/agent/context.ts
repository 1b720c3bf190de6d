import type { ChatMessage, HistoryMessage } from '../core/messages.js';

/** The note the model sees on a reply the user cut short. */
export const INTERRUPTED_NOTE = '[interrupted by the user]';
/** The note the model sees on a reply an error cut short. */
export const FAILED_NOTE = '[cut off by a connection error]';
/** Heads the summary of compressed messages, which the model sees as its own reply. */
export const SUMMARY_NOTE = '[My summary of the earlier conversation]';
/** The user-role line before a summary that would otherwise open the conversation. */
export const SUMMARY_CUE = '[The earlier part of this conversation was compressed.]';
/**
 * The user-role line before a reply that would otherwise open the conversation: a session
 * resumed after autonomous turns (their notes are not kept) starts with the agent's words,
 * and chat templates (and several APIs) reject a conversation that does not start with the
 * user's.
 */
export const OPENING_CUE = '[Earlier in this session, on your own:]';

/**
 * Turns the stored conversation into what a chat API accepts: our `tool` role becomes a
 * user message, summaries are the assistant's labelled notes, consecutive messages of one role are merged (several
 * APIs reject two user messages in a row), and an autonomous turn whose context ends on the
 * assistant gets a short user-role cue, since most APIs require the last message to be the
 * user's.
 */
export function buildChatMessages(
  systemPrompt: string,
  history: readonly HistoryMessage[],
  options: {
    autonomousCue?: string;
    sendReasoning?: boolean;
    /**
     * Per-turn notes (time, wake-up reason, what changed) as user-role text placed after the
     * message whose id is the key ('' for before the first). Earlier turns' notes stay where
     * they were, so each request extends the previous one byte for byte.
     */
    notes?: ReadonlyMap<string, readonly string[]>;
  } = {},
): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  const addNotes = (key: string): void => {
    for (const note of options.notes?.get(key) ?? []) push(out, 'user', note);
  };
  addNotes('');
  for (const m of history) {
    let role: ChatMessage['role'];
    let content = m.content;
    if (m.summary) {
      // Cogito's own note (older sessions stored it as `system`): sent as the assistant's,
      // after a user-role line when it would open the conversation (templates want one).
      role = 'assistant';
      content = `${SUMMARY_NOTE}\n${content}`;
      if (out.length === 1) push(out, 'user', SUMMARY_CUE);
    } else if (m.role === 'assistant' && out.length === 1) {
      role = 'assistant';
      push(out, 'user', OPENING_CUE);
    } else if (m.role === 'system') {
      role = 'user';
    } else if (m.role === 'tool') {
      role = 'user';
    } else {
      role = m.role;
    }
    const note =
      m.role !== 'assistant'
        ? undefined
        : m.interrupted
          ? INTERRUPTED_NOTE
          : m.failed
            ? FAILED_NOTE
            : undefined;
    if (note) content = content ? `${content}\n${note}` : note;
    const msg = push(out, role, content);
    if (msg && options.sendReasoning && m.role === 'assistant' && m.reasoning) {
      msg.reasoning = m.reasoning;
    }
    addNotes(m.id);
  }
  if (out[out.length - 1]!.role !== 'user' && options.autonomousCue) {
    out.push({ role: 'user', content: options.autonomousCue });
  }
  return out;
}

/** Appends a message, merging it into the last one of the same role; the new one, if any. */
function push(
  out: ChatMessage[],
  role: ChatMessage['role'],
  content: string,
): ChatMessage | undefined {
  const last = out[out.length - 1]!;
  if (out.length > 1 && last.role === role) {
    last.content = `${last.content}\n\n${content}`;
    return undefined;
  }
  const msg: ChatMessage = { role, content };
  out.push(msg);
  return msg;
}
