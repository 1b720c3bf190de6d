/**
 * What the screen shows of a session it did not watch being made (a resume, a switch, /new),
 * rebuilt from what the session stored: its tool calls from the saved `tool` messages and
 * its token counts from its cycle ledger, so a resumed session does not show an empty tool
 * log and `session 0`, and a new one does not show the last one's counts.
 */
import type { ToolLogEntry } from '../api/events.js';
import type { HistoryMessage, PartArg } from '../core/messages.js';
import type { CycleRecord } from '../api/ledger.js';

/**
 * The tool log of a stored conversation: one finished entry per saved result, as the live
 * log showed it (status, arguments, one-line result, duration) when the result kept that;
 * an older session's results rebuild from their call and ok alone.
 */
export function toolLogFromHistory(messages: readonly HistoryMessage[]): ToolLogEntry[] {
  const out: ToolLogEntry[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' || !m.results) continue;
    m.results.forEach((r, i) => {
      const shown = shownFields(r.shown);
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
        // The result as the tool gave it: the message's text without its [RESULT] frame
        // (with several results in one message, the whole text).
        full: m.results!.length === 1 ? unframed(m.content) : m.content,
        startedAt: m.at - (shown.durationMs ?? 0),
        ...shown,
      });
    });
  }
  return out;
}

/**
 * The log entries the history holds from before `first` (the oldest entry the store still
 * keeps), the newest `count` of them, oldest first, and how many older remain beyond those.
 * The same rebuild a restart uses, so an entry reads the same scrolled back as after a resume.
 */
export function toolLogBefore(
  messages: readonly HistoryMessage[],
  first: ToolLogEntry | undefined,
  count: number,
): { entries: ToolLogEntry[]; left: number } {
  const all = toolLogFromHistory(messages);
  let end = all.length;
  if (first !== undefined) {
    end = all.findIndex((e) => e.callId === first.callId);
    // A result saved without the id its call had: the entries saved before the call began.
    if (end === -1) end = all.findIndex((e) => e.startedAt >= first.startedAt);
    if (end === -1) end = all.length;
  }
  const start = Math.max(0, end - Math.max(0, count));
  return { entries: all.slice(start, end), left: start };
}

const STATUSES: ReadonlySet<string> = new Set(['ok', 'error', 'denied', 'skipped']);
const isArg = (v: unknown): v is PartArg =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * The fields a stored result kept of its log line, each only when it has its shape (a
 * hand-edited or damaged file loads all the same, with what is well-formed).
 */
function shownFields(shown: unknown): Partial<ToolLogEntry> {
  if (typeof shown !== 'object' || shown === null) return {};
  const s = shown as Record<string, unknown>;
  const out: Partial<ToolLogEntry> = {};
  if (typeof s.status === 'string' && STATUSES.has(s.status))
    out.status = s.status as ToolLogEntry['status'];
  if (Array.isArray(s.args) && s.args.every(isArg)) out.args = s.args;
  if (typeof s.summary === 'string') out.summary = s.summary;
  if (typeof s.durationMs === 'number' && Number.isFinite(s.durationMs))
    out.durationMs = s.durationMs;
  if (typeof s.errorKind === 'string') out.errorKind = s.errorKind as ToolLogEntry['errorKind'];
  if (typeof s.undo === 'string') out.undo = s.undo;
  return out;
}

/** `[RESULT call] ok\n<body>\n[/RESULT]` → `<body>`; other text as it is. */
function unframed(content: string): string {
  const m = /^\[RESULT .*\] (?:ok|error)(?:\n([\s\S]*?))?\n\[\/RESULT\]$/.exec(content);
  return m ? (m[1] ?? '') : content;
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
