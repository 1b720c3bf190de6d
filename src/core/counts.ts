/**
 * Counts as the screen shows them, rounded to what a person reads at a glance: one place so
 * the status bar and `cogito status` say the same number the same way.
 */

/** 950 → "950", 1234 → "1.2k", 1_500_000 → "1.5M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '0';
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim1(n / 1000)}k`;
  return `${trim1(n / 1_000_000)}M`;
}

/** One decimal under 100 (its trailing `.0` dropped), none from 100 up. */
export function trim1(x: number): string {
  return x >= 100 ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, '');
}

/** 850 → "850ms", 4200 → "4.2s", 300000 → "5m", 5400000 → "1h30m". */
export function shortDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')}s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)}h${rest ? `${rest}m` : ''}`;
}
