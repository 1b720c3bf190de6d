import type { HistoryMessage } from '../core/messages.js';
import type { HistoryRecord } from './records.js';

/**
 * Rebuilds the live conversation from records, in order. A message id seen before is skipped:
 * a write retried after an ambiguous failure (say, a failed fsync) may have landed twice.
 * A `compact` whose `upToId` is not live (its line was lost) is ignored with a warning, which
 * keeps every original message instead of guessing what the summary covered.
 */
export function replay(records: readonly HistoryRecord[]): {
  messages: HistoryMessage[];
  warnings: string[];
} {
  let live: HistoryMessage[] = [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (const record of records) {
    if (record.t === 'msg') {
      if (seen.has(record.m.id)) continue;
      seen.add(record.m.id);
      live.push(record.m);
      continue;
    }
    if (seen.has(record.summary.id)) continue;
    const upTo = live.findIndex((m) => m.id === record.upToId);
    if (upTo === -1) {
      warnings.push(
        `A compression summary refers to message ${record.upToId}, which is not in the history; ` +
          `the summary was ignored and all original messages were kept.`,
      );
      continue;
    }
    seen.add(record.summary.id);
    live = applyCompact(live, record.summary, upTo);
  }
  return { messages: live, warnings };
}

/** The live list after replacing `live[0..upTo]` (inclusive) with `summary`. */
export function applyCompact(
  live: readonly HistoryMessage[],
  summary: HistoryMessage,
  upTo: number,
): HistoryMessage[] {
  return [summary, ...live.slice(upTo + 1)];
}
