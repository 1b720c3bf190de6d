import type { AgentEvent } from '../api/events.js';
import { next, type IllegalTransitionError, type MachineEvent } from '../machine/machine.js';
import type { AgentViewState } from './reducer.js';

/** The `state_changed` event a machine move produces (listeners and the trace see it). */
export type StateChange = Extract<AgentEvent, { type: 'state_changed' }>;

/**
 * Where the table sends the machine on `event`, as a change and the store fields it writes:
 * the state itself, the pause reason that comes with it, and the approval prompt, which only
 * AWAITING_APPROVAL keeps. Throws `IllegalTransitionError` when the table forbids the event.
 */
export function machineMove(
  state: Pick<AgentViewState, 'machine' | 'pauseReason'>,
  event: MachineEvent,
  reason?: string,
): { change: StateChange; patch: Partial<AgentViewState> } {
  const from = state.machine;
  const to = next(from, event);
  const change: StateChange = {
    type: 'state_changed',
    from,
    to,
    event,
    ...(reason ? { reason } : {}),
  };
  // A pause by itself says why; a user's pause keeps the reason shown; leaving PAUSED clears it.
  const pauseReason =
    event === 'AUTO_PAUSE'
      ? (reason ?? state.pauseReason)
      : to === 'PAUSED'
        ? state.pauseReason
        : undefined;
  return {
    change,
    patch: {
      machine: to,
      pauseReason,
      ...(to !== 'AWAITING_APPROVAL' ? { approval: undefined } : {}),
    },
  };
}

/**
 * Whether an illegal machine event is reported instead of thrown. The esbuild bundle defines
 * `process.env.NODE_ENV` as "production": a user's session must not die on an agent bug, but
 * development and tests must fail at the wrong dispatch. Read per call, so a test can stub it.
 */
export function reportIllegalTransitions(): boolean {
  return process.env.NODE_ENV === 'production';
}

/** The warning a production build shows for an illegal event (the move is not made). */
export function illegalTransitionText(err: IllegalTransitionError): string {
  return `internal: the agent tried ${err.event} in state ${err.state}, which the machine does not allow; ignored`;
}
