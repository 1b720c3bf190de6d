import type { ChatMessage, HistoryMessage } from '../core/messages.js';

/** The note the model sees on a reply the user cut short. */
export const INTERRUPTED_NOTE = '[interrupted by the user]';
/** The note the model sees on a reply an error cut short. */
export const FAILED_NOTE = '[cut off by a connection error]';

/**
 * Turns the stored conversation into what a chat API accepts: our `tool` role becomes a
 * user message, summaries are labelled, consecutive messages of one role are merged (several
 * APIs reject two user messages in a row), and an autonomous turn whose context ends on the
 * assistant gets a short user-role cue, since most APIs require the last message to be the
 * user's.
 */
export function buildChatMessages(
  systemPrompt: string,
  history: readonly HistoryMessage[],
  options: { autonomousCue?: string; sendReasoning?: boolean } = {},
): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  for (const m of history) {
    let role: ChatMessage['role'];
    let content = m.content;
    if (m.role === 'system') {
      role = 'user';
      content = m.summary ? `Summary of the earlier conversation:\n${content}` : content;
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
    const last = out[out.length - 1]!;
    if (out.length > 1 && last.role === role) {
      last.content = `${last.content}\n\n${content}`;
      continue;
    }
    const msg: ChatMessage = { role, content };
    if (options.sendReasoning && m.role === 'assistant' && m.reasoning) msg.reasoning = m.reasoning;
    out.push(msg);
  }
  if (out[out.length - 1]!.role !== 'user' && options.autonomousCue) {
    out.push({ role: 'user', content: options.autonomousCue });
  }
  return out;
}
