import { describe, expect, test } from 'vitest';
import {
  CLEAR_SCREEN,
  ENTER_ALT_SCREEN,
  LEAVE_ALT_SCREEN,
  MOUSE_OFF,
  MOUSE_ON,
  PASTE_OFF,
  PASTE_ON,
  SHOW_CURSOR,
  createTerminalGuard,
} from '../../components/terminal/terminalGuard.js';

function sink(): { writes: string[]; write(s: string): void } {
  const writes: string[] = [];
  return { writes, write: (s: string) => void writes.push(s) };
}

function rawInput(): { isTTY: boolean; raw: boolean; setRawMode(m: boolean): void } {
  return {
    isTTY: true,
    raw: true,
    setRawMode(m: boolean) {
      this.raw = m;
    },
  };
}

describe('the terminal guard', () => {
  test('enters the alternate screen once and restores it exactly once', () => {
    const out = sink();
    const input = rawInput();
    const g = createTerminalGuard(out, input);
    g.enter();
    g.enter();
    expect(out.writes).toEqual([ENTER_ALT_SCREEN + PASTE_ON]);
    g.restore();
    g.restore();
    g.restore();
    expect(out.writes).toEqual([
      ENTER_ALT_SCREEN + PASTE_ON,
      PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR,
    ]);
    expect(g.restored).toBe(true);
    expect(input.raw).toBe(false);
  });

  test('mouse reporting: only inside the screen, and off again when it is restored', () => {
    expect(MOUSE_ON).toBe('\x1b[?1000h\x1b[?1006h');
    const out = sink();
    const g = createTerminalGuard(out, rawInput());
    g.setMouse(true);
    expect(out.writes).toEqual([]);
    g.enter();
    g.setMouse(true);
    g.setMouse(true);
    expect(out.writes).toEqual([ENTER_ALT_SCREEN + PASTE_ON, MOUSE_ON]);
    g.restore();
    expect(out.writes[2]).toBe(MOUSE_OFF + PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR);
    g.setMouse(true);
    expect(out.writes).toHaveLength(3);
  });

  test('the alternate screen starts with the cursor home; bracketed paste is on inside it', () => {
    expect(ENTER_ALT_SCREEN).toBe('\x1b[?1049h\x1b[H');
    expect(PASTE_ON).toBe('\x1b[?2004h');
    expect(PASTE_OFF).toBe('\x1b[?2004l');
  });

  test('clearing the screen leaves the scrollback alone', () => {
    expect(CLEAR_SCREEN).toBe('\x1b[2J\x1b[H');
    expect(CLEAR_SCREEN).not.toContain('\x1b[3J');
  });

  test('raw mode can be held between two screens, but not after the restore', () => {
    const input = rawInput();
    const g = createTerminalGuard(sink(), input);
    g.holdRawMode(); // not entered yet: nothing to hold
    expect(input.raw).toBe(true);
    input.raw = false;
    g.holdRawMode();
    expect(input.raw).toBe(false);
    g.enter();
    g.holdRawMode();
    expect(input.raw).toBe(true);
    g.restore();
    g.holdRawMode();
    expect(input.raw).toBe(false);
  });

  test('steps aside for an editor with its modes off, and comes back with them on', () => {
    const out = sink();
    const input = rawInput();
    const g = createTerminalGuard(out, input);
    g.enter();
    g.setMouse(true);
    g.stepAside();
    g.stepAside();
    expect(out.writes.slice(2)).toEqual([MOUSE_OFF + PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR]);
    expect(input.raw).toBe(false);
    g.holdRawMode(); // the editor has the keys: nothing takes raw mode back meanwhile
    expect(input.raw).toBe(false);
    g.comeBack();
    g.comeBack();
    expect(out.writes.slice(3)).toEqual([ENTER_ALT_SCREEN + PASTE_ON + MOUSE_ON]);
    expect(input.raw).toBe(true);
    // Restored while aside (never, in practice): the normal screen is not left twice.
    g.stepAside();
    g.restore();
    expect(out.writes).toHaveLength(5);
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
    expect(out.writes.at(-1)).toBe(PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR);
  });
});
