import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleWatchdog } from '../../src/providers/idleWatchdog.js';

describe('idleWatchdog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once after the idle time while armed', () => {
    const onStall = vi.fn();
    const dog = createIdleWatchdog(100, onStall);
    dog.arm();
    vi.advanceTimersByTime(99);
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(dog.fired).toBe(true);
    dog.arm();
    vi.advanceTimersByTime(500);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it('restarts the count on every touch', () => {
    const onStall = vi.fn();
    const dog = createIdleWatchdog(100, onStall);
    dog.arm();
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(80);
      dog.touch();
    }
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it('does not count while disarmed (a slow consumer is not a stalled server)', () => {
    const onStall = vi.fn();
    const dog = createIdleWatchdog(100, onStall);
    dog.arm();
    vi.advanceTimersByTime(90);
    dog.disarm();
    dog.touch(); // bytes buffered while the consumer is busy do not re-arm it
    vi.advanceTimersByTime(1000);
    expect(onStall).not.toHaveBeenCalled();
    dog.arm(); // a fresh full period
    vi.advanceTimersByTime(99);
    expect(onStall).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it('never fires after stop', () => {
    const onStall = vi.fn();
    const dog = createIdleWatchdog(100, onStall);
    dog.arm();
    dog.stop();
    dog.arm();
    vi.advanceTimersByTime(1000);
    expect(onStall).not.toHaveBeenCalled();
    expect(dog.fired).toBe(false);
  });
});
