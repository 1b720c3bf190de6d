/**
 * Markdown blocks (marked's tokens) to styled lines at a given width: headings, paragraphs,
 * lists, quotes, code, tables, rules. Pure: the same tokens and width give the same lines.
 */
import type { Token, Tokens } from 'marked';
import { codeLines } from './codeBlock.js';
import { inlineSpans } from './inline.js';
import { tableLines } from './table.js';
import { withStyle, wrapSpans, type Span, type SpanStyle } from './spans.js';

/** One rendered line: the spans to show, already fitted to the width (code aside). */
export type Line = Span[];

const HEADING: Record<number, SpanStyle> = {
  1: { bold: true, underline: true, color: 'cyan' },
  2: { bold: true, color: 'cyan' },
};
const GUTTER = { dimColor: true };

/** Wraps inline spans to `width`, a `\n` in them starting a new line. */
export function wrapInline(spans: readonly Span[], width: number): Line[] {
  const lines: Line[] = [];
  let current: Span[] = [];
  const flush = (): void => {
    lines.push(...wrapSpans(current, width));
    current = [];
  };
  for (const s of spans) {
    const parts = s.text.split('\n');
    parts.forEach((text, i) => {
      if (i > 0) flush();
      if (text) current.push({ text, style: s.style });
    });
  }
  flush();
  return lines;
}

/** `lines` with `first` before the first and `rest` before every other one. */
function prefix(lines: readonly Line[], first: Span, rest: Span): Line[] {
  return lines.map((l, i) => [i === 0 ? first : rest, ...l]);
}

/** The lines of top-level `tokens`, one blank line between blocks. */
export function blockLines(tokens: readonly Token[], width: number): Line[] {
  const out: Line[] = [];
  for (const tok of tokens) {
    const lines = blockToken(tok, width);
    if (lines.length === 0) continue;
    if (out.length > 0) out.push([]);
    out.push(...lines);
  }
  return out;
}

function blockToken(tok: Token, width: number): Line[] {
  const w = Math.max(1, width);
  switch (tok.type) {
    case 'space':
    case 'def':
      return [];
    case 'paragraph':
    case 'text': {
      const t = tok as Tokens.Paragraph | Tokens.Text;
      return wrapInline(t.tokens ? inlineSpans(t.tokens) : [{ text: t.text }], w);
    }
    case 'heading': {
      const h = tok as Tokens.Heading;
      const style = HEADING[h.depth] ?? { bold: true };
      return wrapInline(withStyle(inlineSpans(h.tokens), style), w);
    }
    case 'code': {
      const c = tok as Tokens.Code;
      // An indented block's text, or a fence's; trailing blank lines of a stream are noise.
      const lines = codeLines(c.text.replace(/\n+$/, ''), c.lang);
      const label: Line[] = c.lang ? [[{ text: c.lang.trim(), style: GUTTER }]] : [];
      return [...label, ...lines.map((l) => [{ text: '▎ ', style: GUTTER }, ...l])];
    }
    case 'blockquote': {
      const q = tok as Tokens.Blockquote;
      const bar = { text: '│ ', style: GUTTER };
      return prefix(blockLines(q.tokens, w - 2), bar, bar);
    }
    case 'list':
      return listLines(tok as Tokens.List, w);
    case 'table':
      return tableLines(tok as Tokens.Table, w);
    case 'hr':
      return [[{ text: '─'.repeat(w), style: GUTTER }]];
    case 'html':
      return wrapInline([{ text: (tok as Tokens.HTML).text.replace(/\n+$/, '') }], w);
    default:
      return wrapInline([{ text: tok.raw.replace(/\n+$/, '') }], w);
  }
}

/** A list: each item behind its bullet or number, its own blocks indented under it. */
function listLines(list: Tokens.List, width: number): Line[] {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((_, i) => (list.ordered ? `${start + i}. ` : '• '));
  const markerWidth = Math.max(...markers.map((m) => m.length));
  const out: Line[] = [];
  list.items.forEach((item, i) => {
    const inner = itemLines(item, Math.max(1, width - markerWidth));
    if (list.loose && i > 0) out.push([]);
    const marker = markers[i]!.padStart(markerWidth);
    const lines = inner.length > 0 ? inner : [[]];
    out.push(...prefix(lines, { text: marker, style: GUTTER }, { text: ' '.repeat(markerWidth) }));
  });
  return out;
}

/** A list item's blocks (tight items are lines of text, loose ones paragraphs), a task's box first. */
function itemLines(item: Tokens.ListItem, width: number): Line[] {
  const box = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
  const out: Line[] = [];
  for (const tok of item.tokens) {
    if (tok.type === 'checkbox') continue;
    const lines = blockToken(tok, width - box.length);
    if (lines.length === 0) continue;
    if (out.length > 0 && item.loose) out.push([]);
    out.push(...lines);
  }
  if (!box) return out;
  const style = item.checked ? { color: 'green' } : GUTTER;
  return prefix(out.length > 0 ? out : [[]], { text: box, style }, { text: '  ' });
}
