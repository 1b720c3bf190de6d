/**
 * A turn's trace as plain data: the phase names, how each phase ended, and the record of a
 * whole turn that /trace shows and the agent's `turn_end` event carries (src/agent/turn.ts
 * records it).
 */
export const PHASES = [
  'RESTORE',
  'COMPACT',
  'COMMAND',
  'BUILD',
  'RUN',
  'SAVE',
  'RESPOND',
  'DONE',
] as const;
export type Phase = (typeof PHASES)[number];

/**
 * How a phase ended, as the trace shows it: `next` goes on, `shortcut` is COMMAND handling the
 * turn itself or BUILD not sending a request, `step` is RESPOND starting the turn's next step.
 */
export type PhaseOutcome = 'next' | 'shortcut' | 'step' | 'aborted' | 'error';

/** One row of a turn's trace, shown by /trace. */
export interface PhaseRecord {
  phase: Phase;
  /** The turn's step (1 for the first request; each reply with calls starts the next). */
  step: number;
  /** ms since the turn started */
  startMs: number;
  durationMs: number;
  outcome: PhaseOutcome;
  note?: string;
}

export interface TurnTrace {
  turnId: number;
  trigger: TurnTrigger;
  startedAt: number;
  durationMs: number;
  phases: PhaseRecord[];
  /** Requests the turn made (its steps). */
  steps: number;
  outcome: TurnOutcomeKind;
}

/**
 * Why a turn started (its wake-up reason): the user wrote, the think interval passed, the
 * workspace changed, a reminder came due, or autonomy was resumed.
 */
export type TurnTrigger = 'timer' | 'user' | 'change' | 'schedule' | 'resume';

/**
 * A turn the user did not ask for: it counts as a cycle, its request says the user is away,
 * and its reply is saved with its cycle number.
 */
export function autonomous(trigger: TurnTrigger): boolean {
  return trigger !== 'user';
}
/** `blocked`: BUILD found that the request would exceed a token budget and did not send it. */
export type TurnOutcomeKind = 'ok' | 'command' | 'aborted' | 'error' | 'blocked';
