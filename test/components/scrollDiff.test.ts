/**
 * Which rows the scroll-region diff moves and what it writes. What the terminal then shows is
 * judged by xterm (an emulator this project did not write), never by the diff's own model of
 * the screen; the long random runs are in rendererXterm.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { diffRows, frameDiff } from '../../components/terminal/frameWriter.js';
import { findShift, shiftSequence } from '../../components/terminal/scrollDiff.js';
import { xtermScreen } from '../helpers/xtermScreen.js';

/** What xterm shows after drawing `before` whole and then receiving `bytes`. */
async function shownAfter(before: string[], bytes: string): Promise<string[]> {
  const xt = xtermScreen(80, before.length);
  try {
    await xt.write(diffRows(undefined, before));
    await xt.write(bytes);
    return xt.lines();
  } finally {
    xt.dispose();
  }
}

const pane = (from: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `line ${from + i} with enough text to be worth moving`);

describe('rows that moved together', () => {
  test('a pane that scrolled up two rows is moved by the terminal, and only new rows written', async () => {
    const before = ['status', ...pane(0, 10), 'input'];
    const after = ['status', ...pane(2, 10), 'input'];
    const shift = findShift(before, after);
    expect(shift).toEqual({ from: 1, to: 10, by: 2 });
    // The terminal's screen after the scroll alone: the two rows scrolled in are blank.
    expect(await shownAfter(before, shiftSequence(shift!))).toEqual([
      'status',
      ...pane(2, 8),
      '',
      '',
      'input',
    ]);
    const out = frameDiff(before, after);
    expect(await shownAfter(before, out)).toEqual(after);
    expect(out.startsWith(shiftSequence(shift!))).toBe(true);
    expect(out).toContain('\x1b[2;11r'); // the region: rows 2 to 11
    expect(out.match(/line \d+/g)).toEqual(['line 10', 'line 11']);
    expect(out.length).toBeLessThan(diffRows(before, after).length / 3);
  });

  test('a pane scrolled back down (content moving down) uses reverse index', async () => {
    const before = ['status', ...pane(5, 10), 'input'];
    const after = ['status', ...pane(2, 10), 'input'];
    const shift = findShift(before, after);
    expect(shift).toEqual({ from: 1, to: 10, by: -3 });
    expect(await shownAfter(before, shiftSequence(shift!))).toEqual([
      'status',
      '',
      '',
      '',
      ...pane(5, 7),
      'input',
    ]);
    const out = frameDiff(before, after);
    expect(await shownAfter(before, out)).toEqual(after);
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
});
