/**
 * The agent machine as data: four states, a closed set of events and one frozen
 * transition table. `next()` is pure; an event the table does not list for a state is
 * rejected (it throws `IllegalTransitionError`), so a wrong dispatch fails loudly in tests
 * instead of silently leaving the agent somewhere unexpected.
 */
export const MACHINE_STATES = [
  'THINKING',
  'AWAITING_INPUT',
  'PAUSED',
  'AWAITING_APPROVAL',
] as const;
export type MachineState = (typeof MACHINE_STATES)[number];

export const MACHINE_EVENTS = [
  /** The user interrupts (Enter, Esc, a printable key, /stop). */
  'INTERRUPT',
  /** The model ended its reply with [WAIT]. */
  'WAIT',
  /** The user sends a message (or an empty submit: resume). */
  'SUBMIT',
  /** The pause key or /pause. */
  'PAUSE',
  /** The pause key while paused, or /resume. */
  'RESUME',
  /** A limit, the loop guard or repeated failures stop autonomy by themselves. */
  'AUTO_PAUSE',
  /** A tool call needs the user's yes / no. */
  'REQUEST_APPROVAL',
  /** The approval was answered; the turn goes on. */
  'APPROVAL_DONE',
  /** The approval was answered during an answering turn while paused: back to paused. */
  'APPROVAL_DONE_PAUSED',
] as const;
export type MachineEvent = (typeof MACHINE_EVENTS)[number];

type Table = Readonly<Record<MachineState, Readonly<Partial<Record<MachineEvent, MachineState>>>>>;

export const TRANSITIONS: Table = Object.freeze({
  THINKING: Object.freeze({
    INTERRUPT: 'AWAITING_INPUT',
    WAIT: 'AWAITING_INPUT',
    PAUSE: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
    REQUEST_APPROVAL: 'AWAITING_APPROVAL',
  }),
  AWAITING_INPUT: Object.freeze({
    SUBMIT: 'THINKING',
    PAUSE: 'PAUSED',
    RESUME: 'THINKING',
  }),
  PAUSED: Object.freeze({
    RESUME: 'THINKING',
    // A message while paused gets one answering turn; the agent stays paused.
    SUBMIT: 'PAUSED',
    // Stopping that answering turn, or it ending with [WAIT] / hitting a limit, keeps it paused.
    INTERRUPT: 'PAUSED',
    WAIT: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
    REQUEST_APPROVAL: 'AWAITING_APPROVAL',
  }),
  AWAITING_APPROVAL: Object.freeze({
    APPROVAL_DONE: 'THINKING',
    APPROVAL_DONE_PAUSED: 'PAUSED',
    INTERRUPT: 'AWAITING_INPUT',
    PAUSE: 'PAUSED',
    AUTO_PAUSE: 'PAUSED',
  }),
});

export class IllegalTransitionError extends Error {
  constructor(
    readonly state: MachineState,
    readonly event: MachineEvent,
  ) {
    super(`illegal transition: ${event} is not allowed in state ${state}`);
    this.name = 'IllegalTransitionError';
  }
}

/**
 * The state the table sends `state` to on `event`. An event the table does not allow throws
 * `IllegalTransitionError`: a caller that may legitimately try an event that does not apply
 * asks `can()` first, so no move is ever dropped silently.
 */
export function next(state: MachineState, event: MachineEvent): MachineState {
  const to = TRANSITIONS[state][event];
  if (to === undefined) throw new IllegalTransitionError(state, event);
  return to;
}

export function can(state: MachineState, event: MachineEvent): boolean {
  return TRANSITIONS[state][event] !== undefined;
}
