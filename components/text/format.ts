/** Small formatters for the status bar and the tool log. */
import os from 'node:os';
import { displayWidth, graphemes } from './wrap.js';
import { trim1 } from '../../src/core/counts.js';

// The count shared with `cogito status` lives in src/ (src/core/counts.ts).
export { formatTokens } from '../../src/core/counts.js';

/** 85 → "85ms", 1234 → "1.2s", 75_000 → "1m15s". */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${trim1(ms / 1000)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Math.round((ms % 60_000) / 1000)}s`;
}

/**
 * A path shortened for the status bar: the home folder becomes `~`, and when still wider
 * than `max` columns the leading folders give way to `…`, keeping the last ones.
 */
export function shortenPath(p: string, max: number, home: string = os.homedir()): string {
  let s = p;
  if (home && (s === home || s.startsWith(home + '/') || s.startsWith(home + '\\')))
    s = `~${s.slice(home.length)}`;
  if (displayWidth(s) <= max) return s;
  const sep = s.includes('/') ? '/' : '\\';
  const parts = s.split(sep);
  let tail = parts.pop() ?? s;
  while (
    parts.length > 0 &&
    displayWidth(`…${sep}${parts[parts.length - 1]}${sep}${tail}`) <= max
  ) {
    tail = `${parts.pop()}${sep}${tail}`;
  }
  const out = `…${sep}${tail}`;
  if (displayWidth(out) <= max) return out;
  // Even the last folder is too long: keep its end.
  const g = graphemes(tail);
  let end = '';
  for (let i = g.length - 1; i >= 0 && displayWidth(`…${g[i]}${end}`) <= max; i--) end = g[i] + end;
  return `…${end}`;
}
