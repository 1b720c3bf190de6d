/**
 * One throttled view of a store: however fast events arrive (a streaming reply sends dozens
 * per second), subscribers hear about them at most once per frame, all in the same tick, so
 * the screen renders once per frame rather than once per token; a change after a quiet
 * frame is delivered at once.
 */
import type { StoreApi } from 'zustand/vanilla';

/** The frame length: ~30 frames per second, which is what Ink itself renders at. */
export const FRAME_MS = 32;

export interface FrameClock {
  subscribe(listener: () => void): () => void;
}

const clocks = new WeakMap<StoreApi<unknown>, Map<number, FrameClock>>();

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
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;

  // When the last frame is older than one frame length, the change is shown at once (the
  // next macrotask, so events of the same tick still share a frame): a lone change such as
  // the status after an interrupt never waits a whole frame. Within a frame, changes wait for
  // its end, so a stream still renders at most once per frame.
  let lastFlush = -Infinity;
  const flush = (): void => {
    timer = undefined;
    lastFlush = performance.now();
    for (const l of [...listeners]) l();
  };
  const onChange = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(flush, Math.max(0, lastFlush + frameMs - performance.now()));
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      unsubscribe ??= store.subscribe(onChange);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          unsubscribe?.();
          unsubscribe = undefined;
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
        }
      };
    },
  };
}
