/** Summaries of timing samples. */

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** The `q`-quantile (0..1) by the nearest-rank method: always one of the samples. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** min / p50 / p90 / p99 / max / mean of `samples`, rounded to 0.01. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (x: number): number => Math.round(x * 100) / 100;
  const mean = sorted.reduce((s, x) => s + x, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    min: r(sorted[0] ?? NaN),
    p50: r(percentile(sorted, 0.5)),
    p90: r(percentile(sorted, 0.9)),
    p99: r(percentile(sorted, 0.99)),
    max: r(sorted[sorted.length - 1] ?? NaN),
    mean: r(mean),
  };
}

/** Milliseconds as text with a sensible precision. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return x >= 100 ? `${Math.round(x)} ms` : `${x.toFixed(1)} ms`;
}

/** Bytes as text (MB with one decimal, or KB). */
export function bytes(x: number): string {
  if (x >= 1024 * 1024) return `${(x / 1024 / 1024).toFixed(1)} MB`;
  if (x >= 1024) return `${(x / 1024).toFixed(1)} KB`;
  return `${Math.round(x)} B`;
}

/** A uniformly random whole number of milliseconds in [lo, hi], to de-phase samples from timers. */
export function jitter(lo: number, hi: number): number {
  return lo + Math.floor(Math.random() * (hi - lo + 1));
}

/** Waits `ms` (benchmarks pace their samples; tests never do this). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
