import { t, type Lang } from '../i18n/messages.js';
import type { CycleRecord } from '../api/ledger.js';
// The counts and durations the status bar and `cogito status` use too: one formatter each.
import { formatTokens, shortDuration } from '../core/counts.js';

export { shortDuration };
/** 1234 → "1.2k": short enough for a table column. */
export const shortCount = formatTokens;

function hhmm(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** One row per record: the cells of the ledger table. */
export function ledgerRow(r: CycleRecord): string[] {
  return [
    hhmm(r.at),
    r.reason,
    shortDuration(r.durationMs),
    shortCount(r.tokensIn),
    shortCount(r.tokensCached),
    shortCount(r.tokensOut),
    r.tools.length === 0 ? '-' : r.tools.map((c) => c.replace(/\(.*$/s, '')).join(' '),
    r.files.length === 0 ? '-' : r.files.join(' '),
    r.end === 'paused' && r.pauseReason ? `paused: ${r.pauseReason.slice(0, 60)}` : r.end,
  ];
}

/** The last `n` records as an aligned text table with a title, for /ledger and the view. */
export function formatLedger(records: readonly CycleRecord[], lang: Lang, n = 20): string[] {
  const shown = records.slice(-n);
  const head = [
    t(lang, 'ledger.colTime'),
    t(lang, 'ledger.colReason'),
    t(lang, 'ledger.colDuration'),
    t(lang, 'ledger.colIn'),
    t(lang, 'ledger.colCached'),
    t(lang, 'ledger.colOut'),
    t(lang, 'ledger.colTools'),
    t(lang, 'ledger.colFiles'),
    t(lang, 'ledger.colEnd'),
  ];
  const rows = [head, ...shown.map(ledgerRow)];
  // The last column is free text: only the ones before it are padded.
  const widths = head.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  const lines = rows.map((r) =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
  );
  return [t(lang, 'ledger.title', { n: shown.length, total: records.length }), ...lines];
}
