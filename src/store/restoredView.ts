/**
 * What the screen shows of a session it did not watch being made (a resume, a switch, /new),
 * rebuilt from what the session stored: its tool calls from the saved `tool` messages and
 * its token counts from its cycle ledger, so a resumed session does not show an empty tool
 * log and `session 0`, and a new one does not show the last one's counts.
 */
import type { ToolLogEntry } from '../api/events.js';
import type { HistoryMessage } from '../core/messages.js';
import type { CycleRecord } from '../api/ledger.js';

/** The tool log of a stored conversation: one finished entry per saved result. */
export function toolLogFromHistory(messages: readonly HistoryMessage[]): ToolLogEntry[] {
  const out: ToolLogEntry[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' || !m.results) continue;
    m.results.forEach((r, i) => {
      out.push({
        // The id the call had when it ran (the tool events', the reply part's); an old session
        // saved none, and its result gets one of its own.
        callId: (i === 0 ? m.callId : undefined) ?? `${m.id}#${i}`,
        // Not a turn of this run: no turn id is ever 0.
        turnId: 0,
        name: r.call.slice(0, Math.max(0, r.call.indexOf('('))) || r.call,
        args: [],
        call: r.call,
        status: r.ok ? 'ok' : 'error',
        // The text the model was sent; with several results in one message it holds all.
        full: m.content,
        startedAt: m.at,
      });
    });
  }
  return out;
}

/** The session's token counts as the status bar shows them, from its ledger. */
export function tokensFromLedger(records: readonly CycleRecord[]): {
  sessionTokens: number;
  sessionCachedTokens: number;
} {
  let sessionTokens = 0;
  let sessionCachedTokens = 0;
  for (const r of records) {
    sessionTokens += (r.tokensIn || 0) + (r.tokensOut || 0);
    sessionCachedTokens += r.tokensCached || 0;
  }
  return { sessionTokens, sessionCachedTokens };
}

/** The reasoning pane after a load: the last stored reply's reasoning, if it had one. */
export function lastReasoningOf(messages: readonly HistoryMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') return m.reasoning ?? '';
  }
  return '';
}
