import type { ChatMessage, HistoryMessage } from '../core/messages.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import { autonomous, type TurnTrigger } from '../api/trace.js';

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

/** Messages at the end that are always sent whole: the turn in progress. */
const PROTECTED_TAIL = 2;

/**
 * The safety net behind compression: when the stored history would not fit the request
 * budget, the oldest tool results are replaced by a short stub first, then the oldest agent
 * replies. The user's own words and summaries are never dropped, and nothing stored changes:
 * this only shapes what is sent.
 */
function fitHistory(
  history: readonly HistoryMessage[],
  budgetTokens: number,
  count: (m: HistoryMessage) => number,
  fixedTokens: number,
): { messages: HistoryMessage[]; dropped: number } {
  let total = fixedTokens;
  for (const m of history) total += count(m);
  const out = history.slice();
  if (total <= budgetTokens) return { messages: out, dropped: 0 };
  let dropped = 0;
  const limit = Math.max(0, out.length - PROTECTED_TAIL);
  for (const role of ['tool', 'assistant'] as const) {
    for (let i = 0; i < limit && total > budgetTokens; i++) {
      const m = out[i]!;
      if (m.role !== role || m.summary) continue;
      // A stable id, so the token counter's cache holds one entry per stub, not one per turn.
      const stub: HistoryMessage = {
        id: `${m.id}~stub`,
        role: m.role,
        at: m.at,
        content: `[${role === 'tool' ? 'older tool results' : 'older reply'} left out to fit the context: ${m.content.length} characters]`,
      };
      total += count(stub) - count(m);
      out[i] = stub;
      dropped += 1;
    }
  }
  return { messages: out, dropped };
}

/** Room left in the window for the model's reply. */
export function replyReserve(contextWindow: number): number {
  return Math.min(4096, Math.floor(contextWindow * 0.2));
}

/** The cue an autonomous turn gets when the context ends on the agent's own words. */
export function autonomousCue(cycle: number): string {
  return `(Autonomous cycle ${cycle}. The user is not here right now. Continue your own work: explore, read, organise, note what you find. Write [WAIT] at the very end only when you need the user's answer.)`;
}

/** The cue a user turn gets in the rare case its context does not end on the user's words. */
export const CONTINUE_CUE = '(Continue.)';

/**
 * BUILD: the system prompt, the history fitted under the window (oldest tool results left
 * out first, never the user's words) and, for autonomous turns, a user-role cue; with the
 * request's size in tokens, known before it is sent.
 */
export function buildTurnRequest(input: {
  systemPrompt: string;
  history: readonly HistoryMessage[];
  cycle: number;
  trigger: TurnTrigger;
  contextWindow: number;
  sendReasoning: boolean;
  counter: TokenCounter;
  /** Per-turn notes of this and earlier turns, pinned in place (see `TurnNotes`). */
  notes?: ReadonlyMap<string, readonly string[]>;
  /** This turn's own note, already in `notes`: counted in the request's size. */
  note?: string | undefined;
}): { messages: ChatMessage[]; promptTokens: number } {
  const { counter, systemPrompt } = input;
  // Only an autonomous turn says the user is away; most APIs want the last message to be the
  // user's, so other turns get a neutral cue when they need one at all.
  const cue = autonomous(input.trigger) ? autonomousCue(input.cycle) : CONTINUE_CUE;
  const budget = input.contextWindow - replyReserve(input.contextWindow);
  const tail = input.note ?? cue;
  const fixed = counter.count(systemPrompt) + counter.count(tail) + 16;
  const fitted = fitHistory(input.history, budget, (m) => counter.countMessage(m), fixed);
  const messages = buildChatMessages(systemPrompt, fitted.messages, {
    autonomousCue: cue,
    sendReasoning: input.sendReasoning,
    ...(input.notes ? { notes: input.notes } : {}),
  });
  const last = messages[messages.length - 1];
  const promptTokens = counter.countContext(
    systemPrompt,
    fitted.messages,
    input.note ?? (last?.content === cue ? cue : ''),
  );
  return { messages, promptTokens };
}
