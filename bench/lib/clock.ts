/**
 * One clock for every process in a benchmark: CLOCK_MONOTONIC in milliseconds. Node's
 * `process.hrtime` and python's `time.CLOCK_MONOTONIC` both read it, and `performance.now()`
 * is the same clock shifted by a constant, which `fromPerf` takes back out.
 */
import { performance } from 'node:perf_hooks';

/** Now, in CLOCK_MONOTONIC milliseconds. */
export function monoNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The shift between `performance.now()` and the monotonic clock, measured once. */
const PERF_SHIFT = (() => {
  // Take the tightest of a few paired readings.
  let best = Infinity;
  let shift = 0;
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    const m = monoNow();
    const b = performance.now();
    if (b - a < best) {
      best = b - a;
      shift = m - (a + b) / 2;
    }
  }
  return shift;
})();

/** A `performance.now()` reading (e.g. the scripted server's `receivedAt`) on the monotonic clock. */
export function fromPerf(perfMs: number): number {
  return perfMs + PERF_SHIFT;
}
