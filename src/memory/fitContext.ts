import type { HistoryMessage } from '../core/messages.js';

/** Messages at the end that are always sent whole: the turn in progress. */
const PROTECTED_TAIL = 2;

/**
 * The safety net behind compression: when the stored history would not fit the request
 * budget, the oldest tool results are replaced by a short stub first, then the oldest agent
 * replies. The user's own words and summaries are never dropped, and nothing stored changes:
 * this only shapes what is sent.
 */
export function fitHistory(
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
