/**
 * The screen's one UI store: the state, changed only by `reduceUi`. Reads are synchronous,
 * so a key that arrives before the next frame already sees what the previous key did.
 */
import { useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { reduceUi, type UiAction, type UiView } from './uiReducer.js';
import { initialUiState, type UiState } from './uiState.js';

export interface UiStore {
  getState(): UiState;
  /** Applies `action`, measured against `view` (the last frame); listeners hear a change. */
  dispatch(action: UiAction, view: UiView): void;
  subscribe(listener: () => void): () => void;
}

export function createUiStore(initial: UiState = initialUiState()): UiStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action, view) {
      const next = reduceUi(state, action, view);
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The UI state, re-rendering the caller on every change. */
export function useUiState(store: UiStore): UiState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
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
