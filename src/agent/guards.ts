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
  /** 0 = off */
  tokenBudgetPerHour: number;
  maxConsecutiveFailures: number;
}

const HOUR_MS = 60 * 60 * 1000;
const REPEAT_LIMIT = 3;

export class Guards {
  private readonly recentCalls: string[] = [];
  private readonly recentReplies: string[] = [];
  private readonly spend: { at: number; tokens: number }[] = [];

  constructor(private readonly settings: () => GuardSettings) {}

  cycleLimit(cycle: number): string | undefined {
    const max = this.settings().maxAutonomousCycles;
    if (max > 0 && cycle >= max) {
      return t(this.settings().lang, 'pause.cycleLimit', { max });
    }
    return undefined;
  }

  recordTokens(tokens: number, now = Date.now()): void {
    this.spend.push({ at: now, tokens });
  }

  /** Tokens spent in the hour before `now`. */
  usedLastHour(now = Date.now()): number {
    while (this.spend.length > 0 && this.spend[0]!.at < now - HOUR_MS) this.spend.shift();
    return this.spend.reduce((sum, s) => sum + s.tokens, 0);
  }

  tokenBudget(now = Date.now()): string | undefined {
    const budget = this.settings().tokenBudgetPerHour;
    const used = this.usedLastHour(now);
    if (budget <= 0) return undefined;
    if (used >= budget) {
      return t(this.settings().lang, 'pause.tokenBudget', { used, limit: budget });
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

  /** The same tool call with the same arguments three times in a row, or near-identical replies. */
  loop(calls: readonly string[], reply: string): string | undefined {
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
    // An empty reply counts too: a model answering nothing, turn after turn, is a loop.
    const norm = reply.toLowerCase().replace(/\s+/g, ' ').trim() || '(empty reply)';
    this.recentReplies.push(norm);
    if (this.recentReplies.length > REPEAT_LIMIT) this.recentReplies.shift();
    if (
      this.recentReplies.length === REPEAT_LIMIT &&
      this.recentReplies.every((r) => nearlySame(r, norm))
    ) {
      this.recentReplies.length = 0;
      return t(this.settings().lang, 'pause.nearIdentical', { count: REPEAT_LIMIT });
    }
    return undefined;
  }

  /** A user message starts a fresh count. */
  reset(): void {
    this.recentCalls.length = 0;
    this.recentReplies.length = 0;
  }
}

/** Near-identical: equal, or differing only in a small tail/head (e.g. a counter). */
function nearlySame(a: string, b: string): boolean {
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
