import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scheduler, type TurnReport } from '../../src/scheduler/scheduler.js';
import { backoffDelay } from '../../src/core/backoff.js';

/** A turn that only ends when the test says so: a slow provider stand-in. */
function controllableTurns() {
  const log: { trigger: string; startedAt: number; endedAt?: number }[] = [];
  let active = 0;
  let maxActive = 0;
  const pending: ((r: TurnReport) => void)[] = [];
  const runTurn = (trigger: string) =>
    new Promise<TurnReport>((resolve) => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      const entry = { trigger, startedAt: Date.now() } as (typeof log)[number];
      log.push(entry);
      pending.push((r) => {
        active -= 1;
        entry.endedAt = Date.now();
        resolve(r);
      });
    });
  return {
    log,
    runTurn,
    get maxActive() {
      return maxActive;
    },
    /** Ends the oldest running turn. */
    async finish(report: TurnReport = { failed: false }) {
      const next = pending.shift();
      if (!next) throw new Error('no turn is running');
      next(report);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('Scheduler', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  function make(
    turns: ReturnType<typeof controllableTurns>,
    opts: { mayThink?: () => boolean; interval?: number } = {},
  ) {
    return new Scheduler({
      runTurn: (t) => turns.runTurn(t),
      mayThink: opts.mayThink ?? (() => true),
      intervalMs: () => opts.interval ?? 3000,
      backoff: () => ({ baseMs: 1000, maxMs: 8000 }),
    });
  }

  it('counts the interval from the end of the previous turn and never overlaps turns', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.start(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(turns.log).toHaveLength(1);
    // A slow turn: 10 s pass, far more than the interval; no second turn starts meanwhile.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(turns.log).toHaveLength(1);
    await turns.finish();
    const endedAt = turns.log[0]!.endedAt!;
    await vi.advanceTimersByTimeAsync(2999);
    expect(turns.log).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(turns.log).toHaveLength(2);
    expect(turns.log[1]!.startedAt - endedAt).toBe(3000);
    expect(turns.maxActive).toBe(1);
    s.stop();
  });

  it('keeps one timer: waking twice schedules once', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.start(500);
    s.wake(500);
    s.wake(500);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(turns.log).toHaveLength(1);
    s.stop();
  });

  it('re-checks the state when the timer fires', async () => {
    const turns = controllableTurns();
    let thinking = true;
    const s = make(turns, { mayThink: () => thinking });
    s.start(1000);
    thinking = false; // e.g. the user interrupted while the timer was pending
    await vi.advanceTimersByTimeAsync(5000);
    expect(turns.log).toHaveLength(0);
    s.stop();
  });

  it('starts a user turn at once, and after the running turn when one is in flight', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.runUserTurn();
    expect(turns.log.map((l) => l.trigger)).toEqual(['user']);
    s.runUserTurn(); // while the first still runs
    expect(turns.log).toHaveLength(1);
    await turns.finish();
    expect(turns.log.map((l) => l.trigger)).toEqual(['user', 'user']);
    expect(turns.maxActive).toBe(1);
    await turns.finish();
    s.stop();
  });

  it('a look asked for while a turn is still ending goes right after it, not after the interval', async () => {
    const turns = controllableTurns();
    const s = make(turns, { interval: 4000 });
    s.start(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(turns.log).toHaveLength(1);
    // The reply gave the floor back ([WAIT]) and the user pressed an empty Enter before the
    // turn finished saving.
    s.wake(0, 'resume');
    expect(turns.log).toHaveLength(1);
    await turns.finish();
    expect(turns.log.map((t) => t.trigger)).toEqual(['timer', 'resume']);
    expect(turns.log[1]!.startedAt).toBe(turns.log[0]!.endedAt);
    // A timer wake while a turn runs stays a no-op: the interval counts from the turn's end.
    s.wake(500);
    await turns.finish();
    expect(turns.log).toHaveLength(2);
    s.stop();
  });

  it('backs off exponentially on failures, capped, and resets after a success', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.start(0);
    await vi.advanceTimersByTimeAsync(0);
    const gaps: number[] = [];
    for (let i = 0; i < 5; i++) {
      await turns.finish({ failed: true });
      const endedAt = Date.now();
      await vi.advanceTimersToNextTimerAsync();
      gaps.push(turns.log[turns.log.length - 1]!.startedAt - endedAt);
    }
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 8000]);
    await turns.finish({ failed: false });
    expect(s.consecutiveFailures).toBe(0);
    const endedAt = Date.now();
    await vi.advanceTimersToNextTimerAsync();
    expect(turns.log[turns.log.length - 1]!.startedAt - endedAt).toBe(3000);
    s.stop();
  });

  it('honours Retry-After when it asks for longer than the back-off', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.start(0);
    await vi.advanceTimersByTimeAsync(0);
    await turns.finish({ failed: true, retryAfterMs: 7000 });
    const endedAt = Date.now();
    await vi.advanceTimersToNextTimerAsync();
    expect(turns.log[1]!.startedAt - endedAt).toBe(7000);
    s.stop();
  });

  it('stop() clears the pending timer', async () => {
    const turns = controllableTurns();
    const s = make(turns);
    s.start(1000);
    s.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(turns.log).toHaveLength(0);
  });
});

describe('backoffDelay', () => {
  it.each([
    [1, undefined, 1000],
    [2, undefined, 2000],
    [3, undefined, 4000],
    [10, undefined, 8000],
    [1, 5000, 5000],
    [3, 500, 4000],
    [1, 10 * 60 * 60_000, 10 * 60_000],
  ])('failures=%i retryAfter=%s → %i ms', (failures, retryAfter, expected) => {
    expect(backoffDelay(failures, { baseMs: 1000, maxMs: 8000 }, retryAfter)).toBe(expected);
  });
});
