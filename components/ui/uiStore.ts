/**
 * The screen's one UI store: the state, changed only by `reduceUi`. Reads are synchronous,
 * so a key that arrives before the next frame already sees what the previous key did.
 *
 * A change can be shown before anyone renders it: the keystroke echo, set with `setEcho`,
 * hears every change first and paints the input line when it can. The screen then renders a
 * painted change within a frame instead of at once, so typing while a reply streams shares
 * the stream's frames rather than adding a full render per key.
 */
import { Listeners } from '../../src/core/listeners.js';
import { useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { FRAME_MS } from '../hooks/frameClock.js';
import { reduceUi, type UiAction, type UiView } from './uiReducer.js';
import { initialUiState, type UiState } from './uiState.js';

export interface UiStore {
  getState(): UiState;
  /** Applies `action`, measured against `view` (the last frame); listeners hear a change. */
  dispatch(action: UiAction, view: UiView): void;
  /** `listener(echoed)`: `echoed` when the echo has already painted this change. */
  subscribe(listener: (echoed: boolean) => void): () => void;
  /** The keystroke echo: hears each change before the listeners; true when it painted it. */
  setEcho(echo: ((state: UiState) => boolean) | undefined): void;
}

export function createUiStore(initial: UiState = initialUiState()): UiStore {
  let state = initial;
  let echo: ((state: UiState) => boolean) | undefined;
  const listeners = new Listeners<[echoed: boolean]>();
  return {
    getState: () => state,
    dispatch(action, view) {
      const next = reduceUi(state, action, view);
      if (next === state) return;
      state = next;
      const echoed = echo?.(next) === true;
      listeners.emit(echoed);
    },
    subscribe(listener) {
      return listeners.subscribe(listener);
    },
    setEcho(e) {
      echo = e;
    },
  };
}

/**
 * The UI state, re-rendering the caller on every change: at once, or within a frame when the
 * echo painted the change already (an unpainted change that comes meanwhile renders at once).
 */
export function useUiState(store: UiStore, echoedFrameMs: number = FRAME_MS): UiState {
  const subscribe = useCallback(
    (render: () => void) => {
      let later: ReturnType<typeof setTimeout> | undefined;
      const now = (): void => {
        clearTimeout(later);
        later = undefined;
        render();
      };
      const unsubscribe = store.subscribe((echoed) => {
        if (!echoed) now();
        else later ??= setTimeout(now, echoedFrameMs);
      });
      return () => {
        clearTimeout(later);
        unsubscribe();
      };
    },
    [store, echoedFrameMs],
  );
  return useSyncExternalStore(subscribe, store.getState, store.getState);
}

/**
 * A dispatch that measures against the latest committed frame's `view` (kept after each
 * commit, never during render), stable across renders so effects and timers can hold it.
 */
export function useUiDispatch(store: UiStore, view: UiView): (action: UiAction) => void {
  const latest = useRef(view);
  useLayoutEffect(() => {
    latest.current = view;
  });
  return useCallback((action: UiAction) => store.dispatch(action, latest.current), [store]);
}
