import { t, type Lang } from '../i18n/messages.js';
import type { TurnResult } from '../pipeline/turn.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import { DAY_MS, HOUR_MS, type TokenBudget } from './budget.js';
import type { AgentEvent } from './events.js';
import type { Guards } from './guards.js';

/** Errors that retrying cannot fix. */
const PERMANENT_ERRORS: ReadonlySet<string> = new Set([
  'auth',
  'not_found',
  'unavailable',
  'bad_request',
]);

/** The few facts and verbs the RESPOND policy needs from the agent. */
export interface RespondContext {
  lang: Lang;
  /** Consecutive failures before this turn. */
  failures: number;
  guards: Guards;
  budget: TokenBudget;
  /** Tokens this turn used (the session total minus what was already counted). */
  newTokens: number;
  cycle: number;
  /** Removes secrets from text shown to the user (a server may echo the key back). */
  redact(text: string): string;
  emit(event: AgentEvent): void;
  wait(): void;
  autoPause(reason: string): void;
}

/**
 * RESPOND: what the machine does after a turn (wait, pause with a reason, or go on), and
 * what the scheduler learns (a failure to back off from). A blocked turn (a budget it would
 * have passed) pauses with the budget's reason; nothing was sent.
 */
export function respondTo(result: TurnResult, c: RespondContext): TurnReport {
  if (result.saveFailed) {
    c.emit({ type: 'error', error: { kind: 'history_write', message: result.saveFailed } });
    c.autoPause(t(c.lang, 'pause.historyWrite', { error: result.saveFailed }));
    return { failed: false };
  }
  if (result.outcome === 'error' && result.error) {
    // A server may echo request fields (the key among them) back in its error.
    const error = { ...result.error, message: c.redact(result.error.message) };
    const retryAfterMs = 'retryAfterMs' in error ? error.retryAfterMs : undefined;
    c.emit({ type: 'error', turnId: result.trace.turnId, error });
    // A bad key, an unknown model or a provider that cannot run will not fix itself by
    // retrying: pause at once and say what to change.
    const reason = PERMANENT_ERRORS.has(error.kind)
      ? t(c.lang, 'pause.permanent', { error: error.message })
      : c.guards.failures(c.failures + 1, error.message);
    if (reason) c.autoPause(reason);
    return { failed: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (result.blocked !== undefined) {
    c.autoPause(result.blocked);
    return { failed: false };
  }
  if (result.outcome !== 'ok') return { failed: false };

  c.budget.record(c.newTokens);
  c.emit({
    type: 'budget',
    usedLastHour: c.budget.used(HOUR_MS),
    usedLastDay: c.budget.used(DAY_MS),
  });
  if (result.wait) {
    c.wait();
    return { failed: false };
  }
  const reason = c.guards.loop(result.calls) ?? c.guards.cycleLimit(c.cycle);
  if (reason) c.autoPause(reason);
  return { failed: false };
}
