import type { ChatMessage, HistoryMessage } from '../core/messages.js';
import { fitHistory } from '../memory/fitContext.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import type { TurnTrigger } from '../api/trace.js';
import { buildChatMessages } from './context.js';

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
  const cue = input.trigger === 'timer' ? autonomousCue(input.cycle) : CONTINUE_CUE;
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
