import { DEFAULT_MAX_STEPS_PER_TURN } from '../config/schema.js';
import { t, type Lang } from '../i18n/messages.js';

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
