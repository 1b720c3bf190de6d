import { t, type Lang } from '../i18n/messages.js';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export interface BudgetSettings {
  lang: Lang;
  /** 0 = off */
  tokenBudgetPerHour: number;
  /** 0 or absent = off */
  tokenBudgetPerDay?: number;
}

/** Why the next request may not be sent, and when enough of the budget is free again. */
export interface BudgetStop {
  reason: string;
  refillsAt: number;
}

/**
 * Rolling hourly and daily token budgets, checked before a request with its estimated size
 * (not after, when the tokens are already spent).
 */
export class TokenBudget {
  private readonly spend: { at: number; tokens: number }[] = [];

  /** `settings` is read at each check (the agent's own settings object); `clock` its timers. */
  constructor(
    private readonly settings: Readonly<BudgetSettings>,
    private readonly clock: { now(): number } = Date,
  ) {}

  private now(): number {
    return this.clock.now();
  }

  /**
   * Spending from before this run (every session of the home, from their ledgers), so the
   * windows hold across restarts. Kept in time order with what this run records.
   */
  seed(earlier: readonly { at: number; tokens: number }[]): void {
    this.spend.push(...earlier.filter((s) => s.tokens > 0));
    this.spend.sort((a, b) => a.at - b.at);
  }

  record(tokens: number): void {
    if (tokens > 0) this.spend.push({ at: this.now(), tokens });
  }

  /** Tokens spent in the `windowMs` before now. */
  used(windowMs: number): number {
    const from = this.now() - windowMs;
    // Nothing older than a day is ever asked for.
    while (this.spend.length > 0 && this.spend[0]!.at < this.now() - DAY_MS) this.spend.shift();
    return this.spend.reduce((sum, s) => (s.at >= from ? sum + s.tokens : sum), 0);
  }

  /** The stop for a request of `estimate` tokens, or undefined when it fits both budgets. */
  check(estimate: number): BudgetStop | undefined {
    const s = this.settings;
    return (
      this.checkOne(estimate, s.tokenBudgetPerHour, HOUR_MS, 'hour') ??
      this.checkOne(estimate, s.tokenBudgetPerDay ?? 0, DAY_MS, 'day')
    );
  }

  private checkOne(
    estimate: number,
    limit: number,
    windowMs: number,
    per: 'hour' | 'day',
  ): BudgetStop | undefined {
    if (limit <= 0) return undefined;
    const used = this.used(windowMs);
    if (used + estimate <= limit) return undefined;
    const refillsAt = this.refillTime(estimate, limit, windowMs, used);
    const lang = this.settings.lang;
    return {
      refillsAt,
      reason: t(lang, per === 'hour' ? 'pause.budgetHour' : 'pause.budgetDay', {
        used,
        estimate,
        limit,
        at: clockTime(refillsAt),
      }),
    };
  }

  /** When enough old spending has left the window for `estimate` to fit. */
  private refillTime(estimate: number, limit: number, windowMs: number, used: number): number {
    const from = this.now() - windowMs;
    let left = used;
    for (const s of this.spend) {
      if (s.at < from) continue;
      left -= s.tokens;
      if (left + estimate <= limit) return s.at + windowMs;
    }
    // The request alone is bigger than the budget: it never fits; say so with the window.
    return this.now() + windowMs;
  }
}

/** `14:05` in local time: what a user reads off their own clock. */
export function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
