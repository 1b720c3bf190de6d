/**
 * The turn pipeline as data. Every turn, a think cycle or a user turn, walks these phases
 * in order; `COMMAND` may short-cut to `DONE` (a slash command needs no model call), and
 * `BUILD` to `RESPOND` (a request over a token budget is not sent). An abort or a failure
 * before SAVE jumps to `SAVE`, so whatever was produced is kept; SAVE goes on to RESPOND and
 * RESPOND to DONE whatever happened. A reply that called tools is one step of the turn:
 * RESPOND sends it round again (`step`, back to COMPACT) so the results go back at once,
 * until a reply without calls, `[WAIT]`, a stop rule or the per-turn step limit ends the turn.
 * `shortcut` has two meanings here, one per phase; inside the turn they are two outcomes
 * (`handled`, `blocked`: phaseHandlers.ts), and the trace shows both as `shortcut`.
 */
import type { Phase, PhaseOutcome } from '../api/trace.js';

export const PHASE_TRANSITIONS: Readonly<
  Record<Phase, Readonly<Partial<Record<PhaseOutcome, Phase>>>>
> = Object.freeze({
  RESTORE: { next: 'COMPACT', aborted: 'SAVE', error: 'SAVE' },
  COMPACT: { next: 'COMMAND', aborted: 'SAVE', error: 'SAVE' },
  COMMAND: { next: 'BUILD', shortcut: 'DONE', aborted: 'SAVE', error: 'SAVE' },
  // A request that would break a token budget is not sent: straight to RESPOND, which pauses.
  BUILD: { next: 'RUN', shortcut: 'RESPOND', aborted: 'SAVE', error: 'SAVE' },
  RUN: { next: 'SAVE', aborted: 'SAVE', error: 'SAVE' },
  // SAVE and RESPOND always go on: an abort or error there still finishes the turn.
  SAVE: { next: 'RESPOND', aborted: 'RESPOND', error: 'RESPOND' },
  // The reply called tools and nothing stops the turn: its next step, with the results.
  RESPOND: { next: 'DONE', step: 'COMPACT', aborted: 'DONE', error: 'DONE' },
  DONE: {},
});

export function nextPhase(phase: Phase, outcome: PhaseOutcome): Phase {
  const to = PHASE_TRANSITIONS[phase][outcome];
  if (to === undefined) throw new Error(`illegal phase transition: ${phase} --${outcome}-->`);
  return to;
}
