/**
 * Turns the chat messages a provider receives into node-llama-cpp's chat history: one system
 * prompt first, then alternating user and model turns, ending with an empty model turn for
 * the reply to be generated into. The model's chat wrapper (resolved from its own template)
 * renders that history into the exact prompt format the model was trained on.
 */
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage } from '../../core/messages.js';

/**
 * Converts `messages`. System messages are joined into the leading system prompt (chat
 * templates accept one, at the start); consecutive messages of one role are joined, since
 * many templates reject two user turns in a row. Earlier reasoning is not sent back: the
 * models' own templates strip it from history too.
 */
export function toLlamaHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .filter((text) => text.trim() !== '');
  const items: ChatHistoryItem[] = system.length
    ? [{ type: 'system', text: system.join('\n\n') }]
    : [];

  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = items[items.length - 1];
    // A native call's result (never made by this provider, but a session may switch to it)
    // is read as the user's words.
    if (m.role === 'user' || m.role === 'tool') {
      if (last?.type === 'user') last.text = `${last.text}\n\n${m.content}`;
      else items.push({ type: 'user', text: m.content });
    } else if (last?.type === 'model') {
      const previous = last.response.join('');
      last.response = [previous ? `${previous}\n\n${m.content}` : m.content];
    } else {
      items.push({ type: 'model', response: [m.content] });
    }
  }

  // The reply is generated into a fresh model turn. A history that already ends on the
  // model's words (an autonomous turn without a cue) gets an empty user turn in between,
  // or the wrapper would continue the previous reply instead of starting a new one.
  if (items[items.length - 1]?.type === 'model') items.push({ type: 'user', text: '' });
  items.push({ type: 'model', response: [] });
  return items;
}
