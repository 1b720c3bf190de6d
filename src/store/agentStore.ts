import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentEvent } from '../api/events.js';
import { IllegalTransitionError, type MachineEvent } from '../machine/machine.js';
import {
  illegalTransitionText,
  machineMove,
  reportIllegalTransitions,
  type StateChange,
} from './machineSlice.js';
import { addNotice, initialViewState, reduce, type AgentViewState } from './reducer.js';

/**
 * What a screen that attaches late needs to start mirroring an agent: everything its store
 * holds for display, as plain data (`JSON.stringify` keeps all of it).
 */
export type AgentSnapshot = AgentViewState;

export interface AgentStoreState extends AgentViewState {
  /** Applies one agent event through the reducer. The agent is the only caller. */
  apply(event: AgentEvent): void;
  /**
   * Moves the machine by the transition table: the only writer of `machine` and of the pause
   * reason that comes with it. Returns the `state_changed` event for the caller to emit to its
   * listeners. An event the table forbids throws `IllegalTransitionError`; in a production
   * build it is reported as a warn notice naming the state and the event instead, the machine
   * stays where it was, and the result is undefined.
   */
  dispatch(event: MachineEvent, reason?: string): StateChange | undefined;
  /**
   * For a store that mirrors an agent elsewhere (a screen attached late): applies an event
   * the agent emitted, and also follows the machine moves its `state_changed` events report
   * (the agent's own store made them with `dispatch`).
   */
  follow(event: AgentEvent): void;
}

export type AgentStore = StoreApi<AgentStoreState>;

/**
 * A fresh vanilla store per agent (and per test). It holds the machine state and all that
 * the screen shows; the machine changes only through `dispatch`, the rest through `apply`.
 */
export function createAgentStore(init: Partial<AgentViewState> = {}): AgentStore {
  return createStore<AgentStoreState>()((set, get) => ({
    ...initialViewState(init),
    apply(event) {
      const patch = reduce(get(), event, Date.now());
      if (Object.keys(patch).length > 0) set(patch);
    },
    follow(event) {
      if (event.type !== 'state_changed') return get().apply(event);
      // Same fields as the agent's dispatch wrote; the agent's table already allowed the move.
      set(machineMove(get(), event.event, event.reason).patch);
    },
    dispatch(event, reason) {
      try {
        const { change, patch } = machineMove(get(), event, reason);
        set(patch);
        return change;
      } catch (err) {
        if (!(err instanceof IllegalTransitionError) || !reportIllegalTransitions()) throw err;
        set(addNotice(get(), 'warn', illegalTransitionText(err), Date.now()));
        return undefined;
      }
    },
  }));
}

/** The plain data of a store's state (its functions left out): what `snapshot()` hands out. */
export function snapshotOf(state: AgentStoreState): AgentSnapshot {
  const { apply: _apply, dispatch: _dispatch, follow: _follow, ...view } = state;
  return structuredClone(view);
}

/** A store that mirrors an agent: its snapshot now, then `follow` each event after it. */
export function createMirrorStore(snapshot: AgentSnapshot): AgentStore {
  return createAgentStore(structuredClone(snapshot));
}
