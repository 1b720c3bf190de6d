/**
 * Wrapping by display width: CJK and emoji take two columns, combining marks none. Panes wrap
 * text themselves (rather than leaving it to Ink) so they know how many rows each message
 * takes and can render only the visible ones.
 */
import { LineWrap } from './lineWrap.js';
import { displayWidth, graphemes, graphemeWidth } from './width.js';

export { displayWidth, graphemes } from './width.js';

/**
 * Wraps one line (no `\n`) to `width` columns. Breaks after spaces when it can, next to wide
 * (CJK) characters, and inside a word only when the word alone is too long. Never returns an
 * empty array.
 */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  if (line.length <= w && displayWidth(line) <= w) return [line];
  const wrap = new LineWrap(w);
  for (const g of graphemes(line)) wrap.push(g);
  return wrap.rows();
}

/** Wraps multi-line text; every `\n` starts a new row, empty lines are kept. */
export function wrapText(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const para of text.split('\n')) rows.push(...wrapLine(para, width));
  return rows;
}

/** Cuts `s` to at most `width` columns, ending with `…` when something was cut. */
export function truncate(s: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(s) <= width) return s;
  let out = '';
  let used = 0;
  for (const g of graphemes(s)) {
    const gw = graphemeWidth(g);
    if (used + gw > width - 1) break;
    out += g;
    used += gw;
  }
  return `${out}…`;
}

/** Pads `s` with spaces to exactly `width` columns (truncating first when longer). */
export function padTo(s: string, width: number): string {
  const cut = truncate(s, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}
