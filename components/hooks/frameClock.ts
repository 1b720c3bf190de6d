/**
 * One throttled view of a store: however fast events arrive (a streaming reply sends dozens
 * per second), subscribers hear about them at most once per frame, all in the same tick, so
 * the screen renders once per frame rather than once per token; a change after a quiet
 * frame is delivered at once.
 */
import { Listeners } from '../../src/core/listeners.js';
import type { StoreApi } from 'zustand/vanilla';

/**
 * The frame length: ~30 frames per second. Ink runs unthrottled here (debug mode, see
 * terminal/session.ts), so this clock is what paces the screen's frames.
 */
export const FRAME_MS = 32;

interface FrameClock {
  subscribe(listener: () => void): () => void;
}

const clocks = new WeakMap<StoreApi<unknown>, Map<number, FrameClock>>();

/**
 * Work that rides on the next frame instead of drawing one of its own: a spinner tick while
 * a reply streams. Every frame is a full render (~10-20 ms of main-thread work), and a key
 * pressed meanwhile is read only when it ends (bench/interrupt: the key → connection closed
 * time is almost all that wait), so ticks that drew their own frames 10 times a second beside
 * the stream's 30 made the thread busier for nothing. Run when the first clock flushes.
 */
const riders: Array<() => void> = [];
/** Clocks with a flush scheduled. */
let scheduled = 0;
/** The clock that flushed last: until its frame ends, a flush of its own can be asked for. */
let recent: { until: number; schedule(): void } | undefined;

/**
 * Runs `work` with the next frame a clock delivers: the one scheduled, or, within a frame of
 * the last flush, one asked for at that frame's end (where the stream's next change lands
 * too); when no frame was drawn lately, at once.
 */
export function onNextFrame(work: () => void): void {
  if (scheduled === 0 && recent && performance.now() < recent.until) recent.schedule();
  if (scheduled > 0) riders.push(work);
  else work();
}

function runRiders(): void {
  for (const work of riders.splice(0)) work();
}

/** The shared frame clock of `store` (one store subscription for all components). */
export function frameClock<S>(store: StoreApi<S>, frameMs: number = FRAME_MS): FrameClock {
  const key = store as StoreApi<unknown>;
  let byMs = clocks.get(key);
  if (!byMs) {
    byMs = new Map();
    clocks.set(key, byMs);
  }
  let clock = byMs.get(frameMs);
  if (!clock) {
    clock = createFrameClock(store, frameMs);
    byMs.set(frameMs, clock);
  }
  return clock;
}

function createFrameClock<S>(store: StoreApi<S>, frameMs: number): FrameClock {
  const listeners = new Listeners();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;

  // When the last frame is older than one frame length, the change is shown at once (the
  // next macrotask, so events of the same tick still share a frame): a lone change such as
  // the status after an interrupt never waits a whole frame. Within a frame, changes wait for
  // its end, so a stream still renders at most once per frame.
  let lastFlush = -Infinity;
  const self = { until: -Infinity, schedule: (): void => onChange() };
  const flush = (): void => {
    timer = undefined;
    scheduled -= 1;
    lastFlush = performance.now();
    self.until = lastFlush + frameMs;
    recent = self;
    // In the same task as the listeners: React renders their updates as one frame.
    runRiders();
    listeners.emit();
  };
  const onChange = (): void => {
    if (timer !== undefined) return;
    scheduled += 1;
    timer = setTimeout(flush, Math.max(0, lastFlush + frameMs - performance.now()));
  };

  return {
    subscribe(listener) {
      const unlisten = listeners.subscribe(listener);
      unsubscribe ??= store.subscribe(onChange);
      return () => {
        unlisten();
        if (listeners.size === 0) {
          if (recent === self) recent = undefined;
          unsubscribe?.();
          unsubscribe = undefined;
          if (timer !== undefined) {
            clearTimeout(timer);
            scheduled -= 1;
            // No frame comes from this clock now: what waited for it runs now.
            if (scheduled === 0) runRiders();
          }
          timer = undefined;
        }
      };
    },
  };
}
