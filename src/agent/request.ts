import type { ChatMessage, FunctionTool, HistoryMessage } from '../core/messages.js';
import { buildChatMessages } from '../history/chatMessages.js';
import type { TokenCounter } from '../memory/tokenCounter.js';
import { autonomous, type TurnTrigger } from '../api/trace.js';

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
        // A native call's result stays paired with its call (history/chatMessages.ts).
        ...(m.callId !== undefined ? { callId: m.callId } : {}),
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
  /** The tools as JSON schemas (`toolCalls: "native"`): sent, and counted in the size. */
  tools?: readonly FunctionTool[] | undefined;
}): { messages: ChatMessage[]; promptTokens: number; tools?: readonly FunctionTool[] } {
  const { counter, systemPrompt } = input;
  // Only an autonomous turn says the user is away; most APIs want the last message to be the
  // user's, so other turns get a neutral cue when they need one at all.
  const cue = autonomous(input.trigger) ? autonomousCue(input.cycle) : CONTINUE_CUE;
  const budget = input.contextWindow - replyReserve(input.contextWindow);
  const tail = input.note ?? cue;
  const toolTokens = input.tools ? counter.count(JSON.stringify(input.tools)) : 0;
  const fixed = counter.count(systemPrompt) + counter.count(tail) + 16 + toolTokens;
  const fitted = fitHistory(input.history, budget, (m) => counter.countMessage(m), fixed);
  const messages = buildChatMessages(systemPrompt, fitted.messages, {
    autonomousCue: cue,
    sendReasoning: input.sendReasoning,
    ...(input.notes ? { notes: input.notes } : {}),
  });
  const last = messages[messages.length - 1];
  const promptTokens =
    toolTokens +
    counter.countContext(
      systemPrompt,
      fitted.messages,
      input.note ?? (last?.content === cue ? cue : ''),
    );
  return { messages, promptTokens, ...(input.tools ? { tools: input.tools } : {}) };
}
