import type { TurnOutcomeKind } from '../api/trace.js';
import type { TurnError } from '../providers/types.js';
import { itemsOf, type Built, type Ran } from './phaseHandlers.js';
import type { TurnFacts, TurnInput } from './turn.js';

/** What one step of the turn made, phase by phase: the walker keeps each phase's value here. */
export interface StepValues {
  /** The step (request) of the turn, from 1. */
  step: number;
  /** RESTORE: the slash command the user typed, for COMMAND. */
  command?: string;
  /** COMMAND: the command handled the turn. */
  handled: boolean;
  /** BUILD: the request (and why it was not sent, if it was not). */
  built?: Built;
  /** RUN: the reply, its reading and its calls' outcomes. */
  ran?: Ran;
  /** Why the step failed: the model's error, or a phase that threw. */
  error?: TurnError;
}

/** How the step ended, from what it produced: a command, blocked, failed, stopped or ok. */
function outcomeOf(turn: TurnInput, s: StepValues): TurnOutcomeKind {
  if (s.handled) return 'command';
  if (s.built?.blocked !== undefined) return 'blocked';
  if (s.error) return 'error';
  return turn.signal.aborted ? 'aborted' : 'ok';
}

/**
 * What RESPOND decides from (and the agent learns after): everything but the trace.
 * `context` is how full the context is: the last prompt's size (absent: nothing was sent).
 */
export function factsOf(
  turn: TurnInput,
  s: StepValues,
  saveFailed: string | undefined,
  context: number | undefined,
): TurnFacts {
  const outcome = outcomeOf(turn, s);
  const blocked = s.built?.blocked;
  return {
    turnId: turn.turnId,
    step: s.step,
    outcome,
    wait: (s.ran?.parsed?.wait ?? false) && outcome === 'ok',
    reply: s.ran?.reply ?? '',
    calls: itemsOf(s.ran).map((i) =>
      i.type === 'call' ? `${i.name}(${JSON.stringify(i.args)})` : i.raw,
    ),
    ...(s.error ? { error: s.error } : {}),
    ...(saveFailed ? { saveFailed } : {}),
    ...(blocked !== undefined ? { blocked } : {}),
    results: (s.ran?.outcomes ?? []).map((o) => `${o.call}\n${o.ok ? 'ok' : 'error'}\n${o.body}`),
    tokens: {
      total: s.ran?.totalTokens ?? 0,
      ...(context !== undefined ? { context } : {}),
    },
  };
}
