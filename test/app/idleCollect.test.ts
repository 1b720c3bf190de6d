import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import { collectWhenQuiet, createIdleCollector } from '../../src/app/idleCollect.js';
import { Listeners } from '../../src/core/listeners.js';

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

  test('turns back to back with no quiet between them: a turn end collects once the busy gap has passed', () => {
    vi.useFakeTimers();
    let clock = 0;
    const collect = vi.fn();
    const c = createIdleCollector({
      quietMs: 1500,
      minGapMs: 10_000,
      busyGapMs: 20_000,
      collect,
      now: () => clock,
    });
    // A turn every 2 s, the next one starting 100 ms after the last one ended.
    const turn = (): void => {
      c.onEvent(ev('turn_start'));
      clock += 1900;
      vi.advanceTimersByTime(1900);
      c.onEvent(turnEnd);
      clock += 100;
      vi.advanceTimersByTime(100);
    };
    for (let i = 0; i < 9; i++) turn(); // 18 s: never quiet, not yet the busy gap
    expect(collect).not.toHaveBeenCalled();
    turn(); // ends at 19.9 s
    turn(); // ends at 21.9 s: past the busy gap, so it collects at once
    expect(collect).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 9; i++) turn(); // the gap counts again from that collection
    expect(collect).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 2; i++) turn();
    expect(collect).toHaveBeenCalledTimes(2);
  });

  test('still quiet after the quiet collection with the young generation grown: one more, once', () => {
    vi.useFakeTimers();
    let clock = 0;
    let grown = true;
    const collect = vi.fn(() => {
      // The second collection is the one that shrinks it (allocation has been slow).
      if (collect.mock.calls.length === 2) grown = false;
    });
    const c = createIdleCollector({
      quietMs: 1500,
      settleMs: 8000,
      minGapMs: 10_000,
      collect,
      youngGrown: () => grown,
      now: () => clock,
    });
    c.onEvent(turnEnd);
    clock += 1500;
    vi.advanceTimersByTime(1500);
    expect(collect).toHaveBeenCalledTimes(1);
    clock += 7999;
    vi.advanceTimersByTime(7999);
    expect(collect).toHaveBeenCalledTimes(1);
    // Exempt from the 10 s gap: it is the quiet stretch's own second look.
    clock += 1;
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(2);
    clock += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  test('no second collection when the young generation is already small, or when a turn starts first', () => {
    vi.useFakeTimers();
    const clock = 0;
    const collect = vi.fn();
    const small = createIdleCollector({
      quietMs: 100,
      settleMs: 1000,
      collect,
      youngGrown: () => false,
      now: () => clock,
    });
    small.onEvent(turnEnd);
    vi.advanceTimersByTime(5000);
    expect(collect).toHaveBeenCalledTimes(1);

    const busyCollect = vi.fn();
    const busy = createIdleCollector({
      quietMs: 100,
      settleMs: 1000,
      collect: busyCollect,
      youngGrown: () => true,
      now: () => clock,
    });
    busy.onEvent(turnEnd);
    vi.advanceTimersByTime(100);
    expect(busyCollect).toHaveBeenCalledTimes(1);
    busy.onEvent(ev('turn_start'));
    vi.advanceTimersByTime(5000);
    expect(busyCollect).toHaveBeenCalledTimes(1);
  });

  test('each collection also trims the C allocator, after the collection frees what it held', () => {
    vi.useFakeTimers();
    let clock = 0;
    const order: string[] = [];
    const c = createIdleCollector({
      quietMs: 100,
      settleMs: 1000,
      collect: () => order.push('collect'),
      trim: () => order.push('trim'),
      youngGrown: () => order.length < 4,
      now: () => clock,
    });
    c.onEvent(turnEnd);
    vi.advanceTimersByTime(100);
    clock += 1000;
    vi.advanceTimersByTime(1000);
    expect(order).toEqual(['collect', 'trim', 'collect', 'trim']);
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

  test('fed by a subscription: the start-up counts as a quiet point, a turn starting first cancels it', () => {
    vi.useFakeTimers();
    const events = new Listeners<[AgentEvent]>();
    const collect = vi.fn();
    const options = { quietMs: 100, minGapMs: 1000, settleMs: 60_000, collect, trim: () => 0 };
    // An attached screen whose agent is between turns: nothing comes, the start collects.
    const stopIdle = collectWhenQuiet((l) => events.subscribe(l), options);
    vi.advanceTimersByTime(99);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    stopIdle();
    // An agent that starts thinking at once: no pause in its first turn, one after it.
    const busy = vi.fn();
    const stopBusy = collectWhenQuiet((l) => events.subscribe(l), { ...options, collect: busy });
    events.emit(ev('turn_start'));
    vi.advanceTimersByTime(5000);
    expect(busy).not.toHaveBeenCalled();
    events.emit(turnEnd);
    vi.advanceTimersByTime(100);
    expect(busy).toHaveBeenCalledTimes(1);
    stopBusy();
  });

  test("fed by a subscription (an attached screen's connection): its stop unsubscribes and cancels", () => {
    vi.useFakeTimers();
    const events = new Listeners<[AgentEvent]>();
    const collect = vi.fn();
    const stop = collectWhenQuiet((l) => events.subscribe(l), {
      quietMs: 100,
      minGapMs: 1000,
      collect,
      trim: () => 0,
    });
    events.emit(ev('turn_start'));
    events.emit(turnEnd);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    // A turn end just before the screen closes: nothing runs after the stop, nothing listens.
    vi.advanceTimersByTime(2000);
    events.emit(turnEnd);
    stop();
    vi.advanceTimersByTime(60_000);
    events.emit(turnEnd);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(events.size).toBe(0);
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
