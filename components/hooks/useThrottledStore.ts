import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { FRAME_MS, frameClock } from './frameClock.js';

/** Compares plain objects one level deep (for selectors that pick several fields). */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) =>
    Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/**
 * `useSyncExternalStore` over the store, with change notifications coalesced to at most one
 * per frame. The selection is memoised with `equal` (default `Object.is`): a selector that
 * builds an object must pass `shallowEqual`, or every render would see a "new" value.
 */
export function useThrottledStore<S, T>(
  store: StoreApi<S>,
  selector: (state: S) => T,
  equal: (a: T, b: T) => boolean = Object.is,
  frameMs: number = FRAME_MS,
): T {
  const last = useRef<{ value: T } | undefined>(undefined);
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  const equalRef = useRef(equal);
  equalRef.current = equal;

  const subscribe = useCallback(
    (cb: () => void) => frameClock(store, frameMs).subscribe(cb),
    [store, frameMs],
  );
  const getSnapshot = useCallback((): T => {
    const next = selectorRef.current(store.getState());
    if (last.current !== undefined && equalRef.current(last.current.value, next))
      return last.current.value;
    last.current = { value: next };
    return next;
  }, [store]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/**
 * `useSyncExternalStore` over the store with no frame clock in between: for values that
 * change rarely and must be seen at once. The machine state is one: during a stream the frame
 * clock holds every change until the frame's end (up to {@link FRAME_MS}), and a memoised
 * component reading it throttled is not drawn again by the key's own frame, so "Your turn"
 * after an interrupt would wait for the next frame. Every store change calls `selector` (keep
 * it a field read); the component renders only when the selected value changes.
 */
export function useStoreNow<S, T>(store: StoreApi<S>, selector: (state: S) => T): T {
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  const subscribe = useCallback((cb: () => void) => store.subscribe(cb), [store]);
  const getSnapshot = useCallback(() => selectorRef.current(store.getState()), [store]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
