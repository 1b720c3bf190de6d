/**
 * Wrapping by display width: CJK and emoji take two columns, combining marks none. Panes wrap
 * text themselves (rather than leaving it to Ink) so they know how many rows each message
 * takes and can render only the visible ones.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ASCII = /^[\x20-\x7e]*$/;

/** The grapheme clusters of `s` (one string per user-perceived character). */
export function graphemes(s: string): string[] {
  if (ASCII.test(s)) return s.split('');
  return Array.from(segmenter.segment(s), (x) => x.segment);
}

/** Display width of one grapheme; printable ASCII takes the fast path. */
function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  return stringWidth(g);
}

/** Display width of a whole string in terminal columns. */
export function displayWidth(s: string): number {
  return ASCII.test(s) ? s.length : stringWidth(s);
}

/**
 * Wraps one line (no `\n`) to `width` columns. Breaks after spaces when it can, next to wide
 * (CJK) characters, and inside a word only when the word alone is too long. Never returns an
 * empty array.
 */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  if (line.length <= w && displayWidth(line) <= w) return [line];
  const out: string[] = [];
  let cur = '';
  let curW = 0;
  // The last place `cur` may be broken: index into `cur` and the width before it.
  let breakAt = -1;
  let breakW = 0;
  for (const g of graphemes(line)) {
    const gw = graphemeWidth(g);
    if (curW + gw > w && cur !== '') {
      if (g === ' ') {
        // A space at the edge becomes the line break itself.
        out.push(cur);
        cur = '';
        curW = 0;
        breakAt = -1;
        continue;
      }
      if (breakAt > 0) {
        out.push(cur.slice(0, breakAt).trimEnd());
        cur = cur.slice(breakAt);
        curW -= breakW;
      } else {
        out.push(cur);
        cur = '';
        curW = 0;
      }
      breakAt = -1;
    }
    if (gw >= 2 && cur !== '') {
      breakAt = cur.length;
      breakW = curW;
    }
    cur += g;
    curW += gw;
    if (g === ' ' || gw >= 2) {
      breakAt = cur.length;
      breakW = curW;
    }
  }
  if (cur !== '' || out.length === 0) out.push(cur);
  return out;
}

/** Wraps multi-line text; every `\n` starts a new row, empty lines are kept. */
export function wrapText(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const para of text.split('\n')) rows.push(...wrapLine(para, width));
  return rows;
}

/**
 * The last `need` rows of `text` wrapped to `width`, wrapping paragraphs from the end only
 * until enough rows are collected: a long streaming reply is not rewrapped in full every
 * frame. `complete` is true when the whole text fit (the rows start at its beginning).
 */
export function wrapTail(
  text: string,
  width: number,
  need: number,
): { rows: string[]; complete: boolean } {
  const paras = text.split('\n');
  const chunks: string[][] = [];
  let count = 0;
  let i = paras.length - 1;
  for (; i >= 0 && count < need; i--) {
    const rows = wrapLine(paras[i]!, width);
    chunks.push(rows);
    count += rows.length;
  }
  const rows = chunks.reverse().flat();
  const complete = i < 0 && count <= need;
  return { rows: rows.length > need ? rows.slice(rows.length - need) : rows, complete };
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
