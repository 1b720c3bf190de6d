import { describe, expect, test } from 'vitest';
import * as ed from '../../components/input/lineEditor.js';
import { emptyHistory, recallNext, recallPrev, remember } from '../../components/input/history.js';
import { layoutInput } from '../../components/input/inputLayout.js';

const at = (value: string, cursor = value.length): ed.LineState => ({ value, cursor });

describe('line editing', () => {
  test('insert and delete around the cursor', () => {
    expect(ed.insert(at('held', 3), 'l')).toEqual(at('helld', 4));
    expect(ed.deleteBack(at('abc', 2))).toEqual(at('ac', 1));
    expect(ed.deleteBack(at('abc', 0))).toEqual(at('abc', 0));
  });

  test('moves over whole graphemes (CJK, emoji)', () => {
    const s = at('a👍中');
    const l1 = ed.left(s);
    expect(l1.cursor).toBe('a👍'.length);
    const l2 = ed.left(l1);
    expect(l2.cursor).toBe(1);
    expect(ed.right(l2).cursor).toBe('a👍'.length);
    expect(ed.deleteBack(at('a👍')).value).toBe('a');
  });

  test('Ctrl+A / Ctrl+E / Ctrl+U / Ctrl+K / Ctrl+W', () => {
    const s = at('hello brave world', 11);
    expect(ed.lineStart(s).cursor).toBe(0);
    expect(ed.lineEnd(s).cursor).toBe(17);
    expect(ed.killToStart(s)).toEqual(at(' world', 0));
    expect(ed.killToEnd(s)).toEqual(at('hello brave', 11));
    expect(ed.killWordBack(s)).toEqual(at('hello  world', 6));
    expect(ed.killWordBack(at('one two   '))).toEqual(at('one '));
  });

  test('line operations work on the current line of a multi-line value', () => {
    const s = at('first\nsecond', 9);
    expect(ed.lineStart(s).cursor).toBe(6);
    expect(ed.lineEnd(s).cursor).toBe(12);
    expect(ed.killToStart(s).value).toBe('first\nond');
  });

  test('pasted text keeps its newlines; CR and CRLF become newlines', () => {
    expect(ed.insert(ed.EMPTY_LINE, 'a\r\nb\rc\n').value).toBe('a\nb\nc\n');
  });
});

describe('input history', () => {
  test('recalls older entries, then comes back to the draft', () => {
    let h = remember(remember(emptyHistory(), 'one'), 'two');
    h = remember(h, 'two'); // repeats are not stored twice
    h = remember(h, '   '); // blanks are not stored
    expect(h.entries).toEqual(['one', 'two']);
    const p1 = recallPrev(h, 'draft')!;
    expect(p1.value).toBe('two');
    const p2 = recallPrev(p1.history, 'two')!;
    expect(p2.value).toBe('one');
    expect(recallPrev(p2.history, 'one')).toBeUndefined();
    const n1 = recallNext(p2.history)!;
    expect(n1.value).toBe('two');
    const n2 = recallNext(n1.history)!;
    expect(n2.value).toBe('draft');
    expect(recallNext(n2.history)).toBeUndefined();
  });
});

describe('layoutInput', () => {
  test('hard-wraps by display width and finds the cursor', () => {
    const l = layoutInput('abcdef', 4, 3);
    expect(l.rows.map((r) => r.text)).toEqual(['abc', 'def']);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 1]);
  });

  test('wide characters and newlines', () => {
    const l = layoutInput('中文字\nx', 3, 4);
    expect(l.rows.map((r) => r.text)).toEqual(['中文', '字', 'x']);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 1]);
    const end = layoutInput('ab\n', 3, 10);
    expect([end.cursorRow, end.cursorCol]).toEqual([1, 0]);
  });
});
