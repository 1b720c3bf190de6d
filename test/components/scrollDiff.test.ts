import { describe, expect, test } from 'vitest';
import { diffRows, frameDiff } from '../../components/terminal/frameWriter.js';
import { applyShift, findShift, shiftSequence } from '../../components/terminal/scrollDiff.js';
import { scrollingFrames } from '../helpers/scrollingFrames.js';

const pane = (from: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `line ${from + i} with enough text to be worth moving`);

describe('rows that moved together', () => {
  test('a pane that scrolled up two rows is moved by the terminal, and only new rows written', () => {
    const before = ['status', ...pane(0, 10), 'input'];
    const after = ['status', ...pane(2, 10), 'input'];
    const shift = findShift(before, after);
    expect(shift).toEqual({ from: 1, to: 10, by: 2 });
    // The terminal's screen after the scroll: the two rows scrolled in are blank.
    expect(applyShift(before, shift!)).toEqual(['status', ...pane(2, 8), '', '', 'input']);
    const out = frameDiff(before, after);
    expect(out.startsWith(shiftSequence(shift!))).toBe(true);
    expect(out).toContain('\x1b[2;11r'); // the region: rows 2 to 11
    expect(out.match(/line \d+/g)).toEqual(['line 10', 'line 11']);
    expect(out.length).toBeLessThan(diffRows(before, after).length / 3);
  });

  test('a pane scrolled back down (content moving down) uses reverse index', () => {
    const before = ['status', ...pane(5, 10), 'input'];
    const after = ['status', ...pane(2, 10), 'input'];
    const shift = findShift(before, after);
    expect(shift).toEqual({ from: 1, to: 10, by: -3 });
    expect(applyShift(before, shift!)).toEqual(['status', '', '', '', ...pane(5, 7), 'input']);
    const out = frameDiff(before, after);
    expect(out).toContain('\x1bM\x1bM\x1bM');
    expect(out.match(/line \d+/g)).toEqual(['line 2', 'line 3', 'line 4']);
  });

  test('nothing is moved when nothing moved, or when moving would save too little', () => {
    const rows = ['status', ...pane(0, 10), 'input'];
    expect(findShift(rows, rows)).toBeUndefined();
    expect(findShift(rows, ['status 2', ...pane(0, 10), 'input'])).toBeUndefined();
    // One short row that happens to match one row lower is not worth a scroll region.
    expect(findShift(['a', 'b', 'c'], ['b', 'x', 'y'])).toBeUndefined();
    expect(frameDiff(rows, rows)).toBe('');
  });

  test('over many scrolling frames, the screen model after each diff is exactly the frame', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const frames = scrollingFrames(seed, 30, 200);
      let screen = frames[0]!;
      let moved = 0;
      for (const next of frames.slice(1)) {
        const shift = findShift(screen, next);
        if (shift) moved += 1;
        const base = shift ? applyShift(screen, shift) : screen;
        // Whatever the shift left different is exactly what the row diff writes.
        const written = diffRows(base, next);
        // eslint-disable-next-line no-control-regex
        const rowsWritten = [...written.matchAll(/\x1b\[(\d+);1H/g)].map((m) => Number(m[1]) - 1);
        expect(rowsWritten).toEqual(next.flatMap((r, i) => (r === base[i] ? [] : [i])));
        screen = next;
      }
      expect(moved).toBeGreaterThan(50);
    }
  });
});
