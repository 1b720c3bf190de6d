/**
 * The stored conversation as the chat messages a provider receives: notes, summaries and
 * cues in their places, neighbours of one role merged, and native calls paired with their
 * results in the form servers expect. Pure: the turn's request (src/agent/request.ts) fits
 * the history to the context first.
 */
import type { ChatMessage, HistoryMessage, NativeToolCall } from '../core/messages.js';

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
  const answers = nativeAnswers(history);
  for (const m of history) {
    // A native call's result went out right after its call (below).
    if (m.role === 'tool' && m.callId !== undefined && answers.has(m.callId)) {
      addNotes(m.id);
      continue;
    }
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
    const calls = role === 'assistant' ? nativeCallsOf(m) : [];
    if (calls.length > 0) {
      pushNative(out, content, calls, answers, options.sendReasoning ? m.reasoning : undefined);
      addNotes(m.id);
      continue;
    }
    const msg = push(out, role, content);
    if (msg && options.sendReasoning && m.role === 'assistant' && m.reasoning) {
      msg.reasoning = m.reasoning;
    }
    addNotes(m.id);
  }
  // Results of native calls are the user's side of the exchange too: no cue after them, or
  // the next request would not extend this one byte for byte.
  const lastRole = out[out.length - 1]!.role;
  if (lastRole !== 'user' && lastRole !== 'tool' && options.autonomousCue) {
    out.push({ role: 'user', content: options.autonomousCue });
  }
  return out;
}

/** What a native call whose result is missing (a crash cut it off) is answered with. */
export const NOT_RUN_RESULT = '[no result: this call did not run]';

/** The calls of a reply that were native, with the server's ids, in reply order. */
function nativeCallsOf(m: HistoryMessage): { partId: string; call: NativeToolCall }[] {
  const out: { partId: string; call: NativeToolCall }[] = [];
  for (const p of m.parts?.items ?? []) {
    if (p.type !== 'call') continue;
    if (p.native === undefined) continue;
    const call = { id: p.native.id, name: p.name ?? '', arguments: p.native.arguments };
    out.push({ partId: p.id, call });
  }
  return out;
}

/** Each native call's id (`<replyId>#<index>`) and its stored result, when there is one. */
function nativeAnswers(history: readonly HistoryMessage[]): Map<string, HistoryMessage | null> {
  const answers = new Map<string, HistoryMessage | null>();
  for (const m of history) {
    if (m.role === 'assistant')
      for (const { partId } of nativeCallsOf(m)) answers.set(partId, null);
  }
  for (const m of history) {
    if (m.role === 'tool' && m.callId !== undefined && answers.has(m.callId))
      answers.set(m.callId, m);
  }
  return answers;
}

/**
 * A reply with native calls in the form servers expect: the assistant message carrying
 * them, then one `tool` message per call with its id. Never merged with a neighbour.
 */
function pushNative(
  out: ChatMessage[],
  content: string,
  calls: readonly { partId: string; call: NativeToolCall }[],
  answers: ReadonlyMap<string, HistoryMessage | null>,
  reasoning: string | undefined,
): void {
  out.push({
    role: 'assistant',
    content,
    toolCalls: calls.map((c) => c.call),
    ...(reasoning ? { reasoning } : {}),
  });
  for (const { partId, call } of calls) {
    const answer = answers.get(partId);
    out.push({ role: 'tool', toolCallId: call.id, content: answer?.content ?? NOT_RUN_RESULT });
  }
}

/** Appends a message, merging it into the last one of the same role; the new one, if any. */
function push(
  out: ChatMessage[],
  role: ChatMessage['role'],
  content: string,
): ChatMessage | undefined {
  const last = out[out.length - 1]!;
  // A `tool` message or an assistant's calls stand alone: merging would unpair them.
  if (out.length > 1 && last.role === role && role !== 'tool' && last.toolCalls === undefined) {
    last.content = `${last.content}\n\n${content}`;
    return undefined;
  }
  const msg: ChatMessage = { role, content };
  out.push(msg);
  return msg;
}
