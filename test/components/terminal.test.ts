import { describe, expect, test } from 'vitest';
import {
  ENTER_ALT_SCREEN,
  LEAVE_ALT_SCREEN,
  SHOW_CURSOR,
  createTerminalGuard,
} from '../../components/terminal/terminalGuard.js';

function sink(): { writes: string[]; write(s: string): void } {
  const writes: string[] = [];
  return { writes, write: (s: string) => void writes.push(s) };
}

describe('the terminal guard', () => {
  test('enters the alternate screen once and restores it exactly once', () => {
    const out = sink();
    const input = {
      isTTY: true,
      raw: true,
      setRawMode(m: boolean) {
        this.raw = m;
      },
    };
    const g = createTerminalGuard(out, input);
    g.enter();
    g.enter();
    expect(out.writes).toEqual([ENTER_ALT_SCREEN]);
    g.restore();
    g.restore();
    g.restore();
    expect(out.writes).toEqual([ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN + SHOW_CURSOR]);
    expect(g.restored).toBe(true);
    expect(input.raw).toBe(false);
  });

  test('restoring without having entered writes nothing', () => {
    const out = sink();
    const g = createTerminalGuard(out);
    g.restore();
    expect(out.writes).toEqual([]);
    g.enter(); // too late: a restored guard never enters again
    expect(out.writes).toEqual([]);
  });

  test('a broken input stream does not stop the restore', () => {
    const out = sink();
    const g = createTerminalGuard(out, {
      isTTY: true,
      setRawMode: () => {
        throw new Error('closed');
      },
    });
    g.enter();
    g.restore();
    expect(out.writes.at(-1)).toBe(LEAVE_ALT_SCREEN + SHOW_CURSOR);
  });
});
