/**
 * The input line as data: a value and a cursor (a UTF-16 index, always on a grapheme
 * boundary), with pure editing operations. The input box only renders this.
 */
import { graphemes } from '../text/wrap.js';

export interface LineState {
  readonly value: string;
  readonly cursor: number;
}

export const EMPTY_LINE: LineState = { value: '', cursor: 0 };

// Controls other than the newline (which CR and CRLF become first).
// eslint-disable-next-line no-control-regex
const TYPED_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Normalises typed or pasted text: CR and CRLF become newlines, other controls go. */
export function normaliseTyped(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').replace(TYPED_CONTROLS, '');
}

export function insert(s: LineState, text: string): LineState {
  const t = normaliseTyped(text);
  if (t === '') return s;
  return {
    value: s.value.slice(0, s.cursor) + t + s.value.slice(s.cursor),
    cursor: s.cursor + t.length,
  };
}

function prevBoundary(value: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const before = graphemes(value.slice(Math.max(0, cursor - 16), cursor));
  return cursor - (before[before.length - 1]?.length ?? 1);
}

function nextBoundary(value: string, cursor: number): number {
  if (cursor >= value.length) return value.length;
  const after = graphemes(value.slice(cursor, cursor + 16));
  return cursor + (after[0]?.length ?? 1);
}

export function left(s: LineState): LineState {
  return { ...s, cursor: prevBoundary(s.value, s.cursor) };
}

export function right(s: LineState): LineState {
  return { ...s, cursor: nextBoundary(s.value, s.cursor) };
}

export function deleteBack(s: LineState): LineState {
  if (s.cursor === 0) return s;
  const from = prevBoundary(s.value, s.cursor);
  return { value: s.value.slice(0, from) + s.value.slice(s.cursor), cursor: from };
}

function lineStartOf(value: string, cursor: number): number {
  return value.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEndOf(value: string, cursor: number): number {
  const nl = value.indexOf('\n', cursor);
  return nl === -1 ? value.length : nl;
}

/** Ctrl+A: to the start of the current line. */
export function lineStart(s: LineState): LineState {
  return { ...s, cursor: lineStartOf(s.value, s.cursor) };
}

/** Ctrl+E: to the end of the current line. */
export function lineEnd(s: LineState): LineState {
  return { ...s, cursor: lineEndOf(s.value, s.cursor) };
}

/** Ctrl+U: delete from the start of the line to the cursor. */
export function killToStart(s: LineState): LineState {
  const from = lineStartOf(s.value, s.cursor);
  return { value: s.value.slice(0, from) + s.value.slice(s.cursor), cursor: from };
}

/** Ctrl+K: delete from the cursor to the end of the line. */
export function killToEnd(s: LineState): LineState {
  const to = lineEndOf(s.value, s.cursor);
  return { value: s.value.slice(0, s.cursor) + s.value.slice(to), cursor: s.cursor };
}

/** Ctrl+W: delete the word before the cursor (and the spaces after it). */
export function killWordBack(s: LineState): LineState {
  let i = s.cursor;
  while (i > 0 && /\s/.test(s.value[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(s.value[i - 1]!)) i--;
  return { value: s.value.slice(0, i) + s.value.slice(s.cursor), cursor: i };
}

/** A whole new value with the cursor at its end (history recall, completion). */
export function setValue(value: string): LineState {
  return { value, cursor: value.length };
}
