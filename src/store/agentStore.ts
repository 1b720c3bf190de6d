import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentEvent } from '../agent/events.js';
import { initialViewState, reduce, type AgentViewState } from './reducer.js';

export interface AgentStoreState extends AgentViewState {
  /** Applies one agent event through the reducer. The agent is the only caller. */
  apply(event: AgentEvent): void;
}

export type AgentStore = StoreApi<AgentStoreState>;

/**
 * A fresh vanilla store per agent (and per test). It holds the machine state and all that
 * the screen shows, and changes only through `apply(event)`.
 */
export function createAgentStore(init: Partial<AgentViewState> = {}): AgentStore {
  return createStore<AgentStoreState>()((set, get) => ({
    ...initialViewState(init),
    apply(event) {
      set(reduce(get(), event));
    },
  }));
}
