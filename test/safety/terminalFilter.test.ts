import { describe, expect, it } from 'vitest';
import { stripTerminalControls, TerminalTextFilter } from '../../src/safety/terminalFilter.js';

describe('the terminal control filter', () => {
  it.each([
    ['OSC 52 clipboard write (BEL)', 'a\x1b]52;c;ZXZpbA==\x07b', 'ab'],
    ['OSC 52 ended by ST', 'a\x1b]52;c;ZXZpbA==\x1b\\b', 'ab'],
    ['OSC 8 hyperlink', '\x1b]8;;https://evil/\x1b\\text\x1b]8;;\x1b\\', 'text'],
    ['cursor moves and erase', 'x\x1b[2A\x1b[2K\x1b[10;10Hy', 'xy'],
    ['carriage return overwrite', 'rm -rf ~\rls', 'rm -rf ~ls'],
    ['8-bit CSI and OSC', 'a\u009b31mb\u009d52;c;x\u009cc', 'abc'],
    ['DCS and APC strings', 'a\x1bPq#0\x1b\\b\x1b_hidden\x1b\\c', 'abc'],
    ['two-byte escapes and other controls', 'a\x1bcb\x07\x08\x7fc', 'abc'],
    ['kept: newlines, tabs, CJK and emoji', '你好\n\tworld 🎉', '你好\n\tworld 🎉'],
  ])('removes %s', (_name, input, expected) => {
    expect(stripTerminalControls(input)).toBe(expected);
  });

  it('holds a sequence split across pieces until it ends', () => {
    const f = new TerminalTextFilter();
    const pieces = ['see \x1b', ']52;c;', 'ZXZp', 'bA==\x1b', '\\done \x1b[', '31', 'm!'];
    expect(pieces.map((p) => f.push(p)).join('')).toBe('see done !');
  });
});
