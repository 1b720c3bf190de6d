import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FRAME_MS, frameClock, onNextFrame } from '../../components/hooks/frameClock.js';
import { createAgentStore } from '../../src/store/agentStore.js';

describe('frameClock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a change after a quiet frame is delivered at once; changes within a frame wait for its end', () => {
    const store = createAgentStore();
    let heard = 0;
    const off = frameClock(store, FRAME_MS).subscribe(() => heard++);
    const notice = (text: string): void =>
      store.getState().apply({ type: 'notice', level: 'info', text });

    // A lone change (the status after an interrupt): the next macrotask, not a frame later.
    notice('one');
    notice('same tick');
    expect(heard).toBe(0);
    vi.advanceTimersByTime(0);
    expect(heard).toBe(1);

    // More changes inside that frame share one delivery at the frame's end.
    vi.advanceTimersByTime(5);
    notice('two');
    notice('three');
    vi.advanceTimersByTime(FRAME_MS - 6);
    expect(heard).toBe(1);
    vi.advanceTimersByTime(1);
    expect(heard).toBe(2);

    // Quiet for longer than a frame: at once again.
    vi.advanceTimersByTime(FRAME_MS * 2);
    notice('four');
    vi.advanceTimersByTime(0);
    expect(heard).toBe(3);
    off();
  });

  test('work for the next frame (a spinner tick) rides on a coming flush, or runs at once', () => {
    const store = createAgentStore();
    const order: string[] = [];
    const off = frameClock(store, FRAME_MS).subscribe(() => order.push('listener'));
    // Nothing scheduled: no frame is coming, so it runs now.
    onNextFrame(() => order.push('alone'));
    expect(order).toEqual(['alone']);

    store.getState().apply({ type: 'notice', level: 'info', text: 'a change' });
    onNextFrame(() => order.push('tick'));
    expect(order).toEqual(['alone']);
    vi.advanceTimersByTime(0);
    // In the flush's own task, before the listeners: React draws both as one frame.
    expect(order).toEqual(['alone', 'tick', 'listener']);

    // Nothing scheduled, but a frame was drawn lately: it waits for that frame's end, where
    // the stream's next change lands too, and both make one delivery.
    vi.advanceTimersByTime(10);
    onNextFrame(() => order.push('tick in the frame'));
    expect(order).toHaveLength(3);
    store.getState().apply({ type: 'notice', level: 'info', text: 'the next token' });
    vi.advanceTimersByTime(FRAME_MS - 11);
    expect(order).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(order.slice(3)).toEqual(['tick in the frame', 'listener']);

    // A clock unsubscribed with its flush still pending: what waited runs then.
    store.getState().apply({ type: 'notice', level: 'info', text: 'another' });
    onNextFrame(() => order.push('late tick'));
    off();
    expect(order.slice(5)).toEqual(['late tick']);
    vi.advanceTimersByTime(FRAME_MS * 2);
    expect(order).toHaveLength(6);
  });
});
