import type { MachineEvent } from '../machine/machine.js';
import type { TurnOutcomeKind } from '../api/trace.js';
import type { TurnError } from '../providers/types.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import type { AgentEvent } from '../api/events.js';
import { DEFAULT_MAX_STEPS_PER_TURN } from '../config/schema.js';
import { t, type Lang } from '../i18n/messages.js';

import { PERMANENT_ERRORS } from './retry.js';

/** Steps in a row whose calls bring nothing new before the chain's wrap-up. */
export const STALE_STEPS = 2;

/**
 * What RESPOND decides from: how the step ended and what it produced. In the turn's result,
 * `calls`, `results` and `tokens.total` cover all of the turn's steps.
 */
export interface TurnFacts {
  turnId: number;
  /** The step (request) of the turn, from 1. */
  step: number;
  outcome: TurnOutcomeKind;
  wait: boolean;
  reply: string;
  calls: string[];
  error?: TurnError;
  /** Tries of the step's request that failed, in the turn (retried, or given up). */
  failedTries?: number;
  /**
   * Steps in a row, this one included, whose calls brought nothing not seen before in the
   * turn (`remind` and failed calls find nothing); absent when the step called nothing.
   */
  staleSteps?: number;
  /** This step was the chain's wrap-up: the chain ends with it. */
  wrappedUp?: boolean;
  saveFailed?: string;
  /** Another state file (the reminders…) could not be written: the step pauses with it. */
  stateFailed?: string;
  /** Why BUILD did not send the request (outcome `blocked`). */
  blocked?: string;
  /** Each call with the result the model saw, to tell a cycle that found something new. */
  results: string[];
  /**
   * The tokens this step's request used (as reported, or estimated), and how full the
   * context is: the last prompt's size, from this step or an earlier one (absent: none sent).
   */
  tokens: { total: number; context?: number };
}

/** What the guards know when a turn ends: their settings and the counts so far. */
export interface RespondGuards extends GuardSettings {
  /** Consecutive failures before this turn. */
  failures: number;
  /** Autonomous cycles since the user last spoke, this turn included. */
  cycle: number;
  /** The calls the loop guard remembers from the turns before. */
  recentCalls: readonly string[];
  /** Removes secrets from text shown to the user (a server may echo the key back). */
  redact(text: string): string;
}

/** RESPOND's decision, as data: the agent dispatches the event and emits the rest. */
export interface Response {
  /** The machine event that follows the turn (none: it goes on as it is). */
  event?: Extract<MachineEvent, 'WAIT' | 'AUTO_PAUSE'>;
  /** Why it pauses by itself (with AUTO_PAUSE), shown as a warn notice when the pause happens. */
  reason?: string;
  /** Error events to report, before anything else. */
  errors: AgentEvent[];
  /** The turn's tokens count against the budgets now (a turn that went through). */
  countTokens: boolean;
  /** What the loop guard remembers after this turn. */
  recentCalls: readonly string[];
  /** What the scheduler learns: a failure to back off from. */
  report: TurnReport;
  /** The turn goes on: the step's results go back to the model at once, in the same turn. */
  more: boolean;
  /**
   * The next step is the chain's wrap-up: its calls found nothing new {@link STALE_STEPS}
   * times in a row, so the model is asked to answer with what it has; the chain ends there.
   */
  wrapUp: boolean;
}

const endsHere = (g: RespondGuards): Response => ({
  more: false,
  wrapUp: false,
  errors: [],
  countTokens: false,
  recentCalls: g.recentCalls,
  report: { failed: false },
});

/**
 * RESPOND, pure, after each step of a turn: what the machine does (wait, pause with a reason,
 * or go on), whether the turn goes on with its next step, and what the scheduler learns. A
 * failed history write pauses; a model error is reported (redacted) and backs off, pausing at
 * once when retrying cannot help or after too many in a row; a blocked step (a budget it would
 * have passed) pauses with the budget's reason; a step that went through counts its tokens,
 * then [WAIT] listens, the loop guard pauses, a reply that called tools goes on to the next
 * step (up to the step limit, which pauses; a chain whose calls found nothing new twice in a
 * row gets one wrap-up step and ends), and the cycle limit pauses at the turn's end.
 */
export function respond(result: TurnFacts, g: RespondGuards): Response {
  if (result.saveFailed) {
    const error = { kind: 'history_write', message: result.saveFailed };
    const reason = t(g.lang, 'pause.historyWrite', { error: result.saveFailed });
    return { ...endsHere(g), event: 'AUTO_PAUSE', reason, errors: [{ type: 'error', error }] };
  }
  if (result.stateFailed) {
    const reason = t(g.lang, 'pause.stateWrite', { error: result.stateFailed });
    return { ...endsHere(g), event: 'AUTO_PAUSE', reason };
  }
  if (result.outcome === 'error' && result.error) return respondToError(result, g);
  if (result.blocked !== undefined) {
    return { ...endsHere(g), event: 'AUTO_PAUSE', reason: result.blocked };
  }
  if (result.outcome !== 'ok') return endsHere(g);
  if (result.wait) return { ...endsHere(g), countTokens: true, event: 'WAIT' };
  const loop = loopCheck(g, g.recentCalls, result.calls);
  const called = result.calls.length > 0;
  const reason =
    loop.reason ??
    (called ? stepLimitReason(g, result.step) : undefined) ??
    (called ? undefined : cycleLimitReason(g, g.cycle));
  // A chain that learns nothing ends: after the wrap-up, or with it when twice nothing new.
  const more = called && reason === undefined && result.wrappedUp !== true;
  return {
    ...endsHere(g),
    countTokens: true,
    recentCalls: loop.recent,
    more,
    wrapUp: more && (result.staleSteps ?? 0) >= STALE_STEPS,
    ...(reason ? { event: 'AUTO_PAUSE' as const, reason } : {}),
  };
}

function respondToError(result: TurnFacts, g: RespondGuards): Response {
  const raw = result.error!;
  // A server may echo request fields (the key among them) back in its error.
  const error = { ...raw, message: g.redact(raw.message) };
  const retryAfterMs = 'retryAfterMs' in error ? error.retryAfterMs : undefined;
  // A bad key, an unknown model or a provider that cannot run will not fix itself by
  // retrying: pause at once and say what to change.
  const reason = PERMANENT_ERRORS.has(error.kind)
    ? t(g.lang, 'pause.permanent', { error: error.message })
    : failuresReason(g, g.failures + (result.failedTries ?? 1), error.message);
  return {
    ...endsHere(g),
    errors: [{ type: 'error', turnId: result.turnId, error }],
    ...(reason ? { event: 'AUTO_PAUSE' as const, reason } : {}),
    report: { failed: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
  };
}

/**
 * The cost and loop controls that stop autonomy by themselves. Each check is a pure function
 * returning the reason to pause (shown to the user) or undefined.
 */
export interface GuardSettings {
  /** The language of the reasons shown to the user. */
  lang: Lang;
  /** 0 = unlimited */
  maxAutonomousCycles: number;
  maxConsecutiveFailures: number;
  /** Requests one turn may make for its tool chain (absent: {@link DEFAULT_MAX_STEPS_PER_TURN}). */
  maxStepsPerTurn?: number;
}

const REPEAT_LIMIT = 3;

/** The autonomous-cycle limit: the reason to pause once `cycle` reaches it. */
export function cycleLimitReason(s: GuardSettings, cycle: number): string | undefined {
  const max = s.maxAutonomousCycles;
  return max > 0 && cycle >= max ? t(s.lang, 'pause.cycleLimit', { max }) : undefined;
}

/**
 * The per-turn step limit: the reason to end the turn once its `step`-th reply still called
 * tools. A runaway chain stops here instead of calling tools without end.
 */
export function stepLimitReason(s: GuardSettings, step: number): string | undefined {
  const max = s.maxStepsPerTurn ?? DEFAULT_MAX_STEPS_PER_TURN;
  return step >= max ? t(s.lang, 'pause.stepLimit', { max }) : undefined;
}

/** Repeated API failures: the reason to pause after `consecutive` failures in a row. */
export function failuresReason(
  s: GuardSettings,
  consecutive: number,
  lastError: string,
): string | undefined {
  const max = s.maxConsecutiveFailures;
  if (max > 0 && consecutive >= max) {
    return t(s.lang, 'pause.apiFailures', { count: consecutive, error: lastError });
  }
  return undefined;
}

/**
 * The loop guard: the same tool call with the same arguments three times in a row. Takes the
 * calls remembered so far and returns what to remember next (emptied once it fires), so the
 * check itself stays pure. Near-identical replies do not pause: they count as "nothing new",
 * and pacing rests longer instead.
 */
export function loopCheck(
  s: GuardSettings,
  recent: readonly string[],
  calls: readonly string[],
): { reason?: string; recent: readonly string[] } {
  const kept = [...recent];
  for (const call of calls) {
    kept.push(call);
    if (kept.length > REPEAT_LIMIT) kept.shift();
    if (kept.length === REPEAT_LIMIT && kept.every((c) => c === call)) {
      const reason = t(s.lang, 'pause.loopGuard', { count: REPEAT_LIMIT, call: call.slice(0, 80) });
      return { reason, recent: [] };
    }
  }
  return { recent: kept };
}
