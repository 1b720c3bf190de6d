/**
 * React's development build (what runs from the sources: tsx, `npm start` without a fresh
 * build) records a `performance.measure` for renders and updates, for the browser's
 * performance tracks. Node keeps every entry in its performance timeline until someone clears
 * it, so a screen left running kept them all: the soak found 150,000 measures, with their
 * "Changed Props" details, holding most of a 500 MB heap after 600 turns. Nothing in Cogito
 * reads measures, so the screen clears them now and then. The production build records none.
 */
import { performance } from 'node:perf_hooks';

/** How often the screen drops the recorded measures. */
export const MEASURE_SWEEP_MS = 5_000;

/** Clears the measures every `everyMs`; returns the stop. The timer never keeps Node alive. */
export function sweepRenderMeasures(everyMs = MEASURE_SWEEP_MS): () => void {
  const timer = setInterval(() => performance.clearMeasures(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
