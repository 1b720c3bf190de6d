/**
 * Styled text for the Markdown rows: a row is a list of spans, each a piece of text with
 * one style. Wrapping and cutting work on the plain text (by display width, the same
 * breaking rules as plain replies) and carry each character's style along.
 */
import { LineWrap } from '../text/lineWrap.js';
import { graphemes, graphemeWidth } from '../text/width.js';

/** How a piece of text looks; Ink `<Text>` props plus the link it stands for. */
export interface SpanStyle {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  dimColor?: boolean;
  color?: string;
  /** The URL this text links to (shown as an OSC 8 hyperlink where the terminal can). */
  link?: string;
}

export interface Span {
  text: string;
  style?: SpanStyle;
}

/** The plain text of `spans`. */
export function spanText(spans: readonly Span[]): string {
  let s = '';
  for (const p of spans) s += p.text;
  return s;
}

/** `style` with `extra` laid over it (nested emphasis: bold inside a link, and so on). */
export function withStyle(spans: readonly Span[], extra: SpanStyle): Span[] {
  return spans.map((s) => ({ text: s.text, style: { ...s.style, ...extra } }));
}

/** Adjacent spans with the same style merged (fewer `<Text>` nodes per row). */
function mergeSpans(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    if (s.text === '') continue;
    const last = out[out.length - 1];
    if (last && sameStyle(last.style, s.style)) last.text += s.text;
    else out.push({ text: s.text, style: s.style });
  }
  return out;
}

function sameStyle(a: SpanStyle | undefined, b: SpanStyle | undefined): boolean {
  if (a === b) return true;
  const ka = Object.entries(a ?? {}).filter(([, v]) => v !== undefined && v !== false);
  const kb = Object.entries(b ?? {}).filter(([, v]) => v !== undefined && v !== false);
  if (ka.length !== kb.length) return false;
  const bb = b as Record<string, unknown> | undefined;
  return ka.every(([k, v]) => bb?.[k] === v);
}

/** One grapheme with its style. */
interface Cell {
  g: string;
  style: SpanStyle | undefined;
}

function cellsOf(spans: readonly Span[]): Cell[] {
  const cells: Cell[] = [];
  for (const s of spans) for (const g of graphemes(s.text)) cells.push({ g, style: s.style });
  return cells;
}

function spansOf(cells: readonly Cell[]): Span[] {
  return mergeSpans(cells.map((c) => ({ text: c.g, style: c.style })));
}

/**
 * Wraps one line of spans (no `\n`) to `width` columns. The plain text is wrapped as plain
 * replies are (LineWrap drops only spaces at breaks), then each row is matched back onto the
 * styled characters in order, so every character keeps its style.
 */
export function wrapSpans(spans: readonly Span[], width: number): Span[][] {
  const cells = cellsOf(spans);
  const wrap = new LineWrap(Math.max(1, Math.floor(width)));
  for (const c of cells) wrap.push(c.g);
  const rows: Span[][] = [];
  let at = 0;
  for (const row of wrap.rows()) {
    const picked: Cell[] = [];
    for (const g of graphemes(row)) {
      while (at < cells.length && cells[at]!.g !== g && cells[at]!.g === ' ') at++;
      const cell = cells[at++];
      picked.push({ g, style: cell?.style });
    }
    rows.push(spansOf(picked));
  }
  return rows;
}

/** Display width of `spans`. */
export function spansWidth(spans: readonly Span[]): number {
  let w = 0;
  for (const s of spans) for (const g of graphemes(s.text)) w += graphemeWidth(g);
  return w;
}

/** `spans` cut to at most `width` columns, ending with `…` when something was cut. */
export function truncateSpans(spans: readonly Span[], width: number): Span[] {
  if (spansWidth(spans) <= width) return spans.slice();
  const out: Cell[] = [];
  let used = 0;
  for (const c of cellsOf(spans)) {
    const gw = graphemeWidth(c.g);
    if (used + gw > width - 1) break;
    out.push(c);
    used += gw;
  }
  if (width > 0) out.push({ g: '…', style: { dimColor: true } });
  return spansOf(out);
}

/** `spans` padded with spaces to exactly `width` columns (cut first when longer). */
export function padSpans(spans: readonly Span[], width: number): Span[] {
  const cut = truncateSpans(spans, width);
  const gap = width - spansWidth(cut);
  return gap > 0 ? [...cut, { text: ' '.repeat(gap) }] : cut;
}
