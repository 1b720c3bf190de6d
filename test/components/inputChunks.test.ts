import { describe, expect, test } from 'vitest';
import { PASTE_END, PASTE_START, createInputChunks } from '../../components/keys/inputChunks.js';

describe('input chunks', () => {
  test('a run of keys read together is split into single keys', () => {
    const c = createInputChunks();
    expect(c.feed('helo\x7flo\r')).toEqual(
      ['h', 'e', 'l', 'o', '\x7f', 'l', 'o', '\r'].map((data) => ({ kind: 'key', data })),
    );
    // Characters, not UTF-16 units: an emoji stays whole.
    expect(c.feed('中👍')).toEqual([
      { kind: 'key', data: '中' },
      { kind: 'key', data: '👍' },
    ]);
  });

  test('single keys and escape sequences pass as they are', () => {
    const c = createInputChunks();
    expect(c.feed('a')).toEqual([{ kind: 'key', data: 'a' }]);
    expect(c.feed('\x1b[A')).toEqual([{ kind: 'key', data: '\x1b[A' }]);
    expect(c.feed('\x1b\r')).toEqual([{ kind: 'key', data: '\x1b\r' }]);
  });

  test('a bracketed paste is one text, across reads, with keys before and after', () => {
    const c = createInputChunks();
    expect(c.feed(`x${PASTE_START}line one\r`)).toEqual([{ kind: 'key', data: 'x' }]);
    expect(c.pasting).toBe(true);
    expect(c.feed('line two')).toEqual([]);
    expect(c.feed(`${PASTE_END}yz`)).toEqual([
      { kind: 'paste', text: 'line one\rline two' },
      { kind: 'key', data: 'y' },
      { kind: 'key', data: 'z' },
    ]);
    expect(c.pasting).toBe(false);
  });

  test('the markers as Ink delivers them (each its own event) and escapes inside a paste', () => {
    const c = createInputChunks();
    expect(c.feed(PASTE_START)).toEqual([]);
    expect(c.feed('red')).toEqual([]);
    expect(c.feed('\x1b[31m')).toEqual([]);
    expect(c.feed('text')).toEqual([]);
    expect(c.feed(PASTE_END)).toEqual([{ kind: 'paste', text: 'redtext' }]);
  });
});
