import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import { createIdleCollector } from '../../src/app/idleCollect.js';

const turnEnd = { type: 'turn_end', turnId: 1 } as unknown as AgentEvent;
const ev = (type: string) => ({ type }) as unknown as AgentEvent;

describe('the idle collection', () => {
  afterEach(() => void vi.useRealTimers());

  test('collects once the agent has been quiet after a turn, not during one', () => {
    vi.useFakeTimers();
    let clock = 0;
    const collect = vi.fn();
    const c = createIdleCollector({ quietMs: 1000, minGapMs: 10_000, collect, now: () => clock });
    c.onEvent(turnEnd);
    vi.advanceTimersByTime(500);
    // The next turn starts before the quiet time is over: no pause in the middle of it.
    c.onEvent(ev('turn_start'));
    c.onEvent(ev('message_update'));
    vi.advanceTimersByTime(5000);
    expect(collect).not.toHaveBeenCalled();
    c.onEvent(turnEnd);
    clock = 20_000;
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(c.stats().collections).toBe(1);
  });

  test('never twice within the gap: a turn ending soon after waits for the gap to pass', () => {
    vi.useFakeTimers();
    let clock = 0;
    const collect = vi.fn();
    const c = createIdleCollector({ quietMs: 100, minGapMs: 10_000, collect, now: () => clock });
    c.onEvent(turnEnd);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    clock = 2_000;
    c.onEvent(turnEnd);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    clock = 10_000;
    vi.advanceTimersByTime(7_999);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  test('stop cancels a pending collection', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const c = createIdleCollector({ quietMs: 100, collect });
    c.onEvent(turnEnd);
    c.stop();
    vi.advanceTimersByTime(1000);
    expect(collect).not.toHaveBeenCalled();
  });

  test('the default collector frees a dropped heap without exposing gc to the program', () => {
    let garbage: object[] | undefined = Array.from({ length: 300_000 }, (_, i) => ({ i }));
    const c = createIdleCollector({ quietMs: 0 });
    const before = process.memoryUsage().heapUsed;
    garbage = undefined;
    vi.useFakeTimers();
    c.onEvent(turnEnd);
    vi.advanceTimersByTime(0);
    vi.useRealTimers();
    expect(garbage).toBeUndefined();
    expect(c.stats().collections).toBe(1);
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 5_000_000);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
