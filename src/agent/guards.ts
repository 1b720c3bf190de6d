import { t, type Lang } from '../i18n/messages.js';

/**
 * The cost and loop controls that stop autonomy by themselves. Each check returns the
 * reason to pause (shown to the user) or undefined.
 */
export interface GuardSettings {
  /** The language of the reasons shown to the user. */
  lang: Lang;
  /** 0 = unlimited */
  maxAutonomousCycles: number;
  maxConsecutiveFailures: number;
}

const REPEAT_LIMIT = 3;

export class Guards {
  private readonly recentCalls: string[] = [];
  private readonly spend: { at: number; tokens: number }[] = [];

  constructor(private readonly settings: () => GuardSettings) {}

  cycleLimit(cycle: number): string | undefined {
    const max = this.settings().maxAutonomousCycles;
    if (max > 0 && cycle >= max) {
      return t(this.settings().lang, 'pause.cycleLimit', { max });
    }
    return undefined;
  }

  failures(consecutive: number, lastError: string): string | undefined {
    const max = this.settings().maxConsecutiveFailures;
    if (max > 0 && consecutive >= max) {
      return t(this.settings().lang, 'pause.apiFailures', { count: consecutive, error: lastError });
    }
    return undefined;
  }

  /**
   * The same tool call with the same arguments three times in a row. Near-identical replies
   * no longer pause: they count as "nothing new", and pacing rests longer instead.
   */
  loop(calls: readonly string[]): string | undefined {
    for (const call of calls) {
      this.recentCalls.push(call);
      if (this.recentCalls.length > REPEAT_LIMIT) this.recentCalls.shift();
      if (this.recentCalls.length === REPEAT_LIMIT && this.recentCalls.every((c) => c === call)) {
        this.recentCalls.length = 0;
        return t(this.settings().lang, 'pause.loopGuard', {
          count: REPEAT_LIMIT,
          call: call.slice(0, 80),
        });
      }
    }
    return undefined;
  }

  /** A user message starts a fresh count. */
  reset(): void {
    this.recentCalls.length = 0;
  }
}

/** Near-identical: equal, or differing only in a small tail/head (e.g. a counter). */
export function nearlySame(a: string, b: string): boolean {
  if (a === b) return true;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return true;
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  return (prefix + suffix) / longer >= 0.95;
}
