/**
 * React's development build leaves a performance measure per render in Node's timeline, which
 * keeps them until cleared: the screen sweeps them on a timer, and stops when it ends.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEASURE_SWEEP_MS, sweepRenderMeasures } from '../../components/terminal/renderMeasures.js';

const measures = (): number => performance.getEntriesByType('measure').length;

function renderLike(n: number): void {
  for (let i = 0; i < n; i++) {
    performance.measure(`Text ${i}`, { start: 0, end: 1, detail: { props: [['children', i]] } });
  }
}

describe('the render measure sweep', () => {
  afterEach(() => {
    vi.useRealTimers();
    performance.clearMeasures();
  });

  it('drops the measures renders left, every sweep, until stopped', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    performance.clearMeasures();
    const stop = sweepRenderMeasures();
    renderLike(3_000);
    expect(measures()).toBe(3_000);
    vi.advanceTimersByTime(MEASURE_SWEEP_MS);
    expect(measures()).toBe(0);
    renderLike(500);
    vi.advanceTimersByTime(MEASURE_SWEEP_MS);
    expect(measures()).toBe(0);
    stop();
    renderLike(10);
    vi.advanceTimersByTime(MEASURE_SWEEP_MS * 3);
    expect(measures()).toBe(10);
  });
});
