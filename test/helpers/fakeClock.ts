/**
 * A manual clock for the agent's scheduler, budgets and ledger (its `Timers`), while the
 * HTTP to the scripted server stays real. `advance(ms)` fires due timers in time order and
 * lets each turn they start finish before moving on, so a simulated day runs in seconds.
 */
import type { Timers } from '../../src/scheduler/scheduler.js';

interface Pending {
  id: number;
  at: number;
  fn: () => void;
}

export class FakeClock implements Timers {
  private t: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start = Date.UTC(2026, 11, 1, 9, 0, 0)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const p = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
    this.pending.push(p);
    return p.id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }

  /** When the next timer fires, if any. */
  nextAt(): number | undefined {
    return this.pending.reduce<number | undefined>(
      (m, p) => (m === undefined || p.at < m ? p.at : m),
      undefined,
    );
  }

  /**
   * Moves the clock forward by `ms`, firing every timer that comes due on the way; after
   * each, `settle()` (e.g. `agent.idle()`) runs so the turn it started completes first.
   */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const next = this.pending
        .filter((p) => p.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
    await settle();
  }
}
