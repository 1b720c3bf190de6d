/**
 * Display width in terminal columns: CJK and emoji take two, combining marks none. Printable
 * ASCII takes a fast path, and the widths of other characters are remembered, since
 * measuring one with string-width costs microseconds and CJK text repeats them a lot.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ASCII = /^[\x20-\x7e]*$/;
/**
 * Segmenting a long string in one go costs far more than linear time (50K CJK characters:
 * ~400 ms against ~35 ms in pieces), so long strings are segmented in pieces of this size.
 */
const SEGMENT_PIECE = 1024;

/** The grapheme clusters of `s` (one string per user-perceived character). */
export function graphemes(s: string): string[] {
  if (ASCII.test(s)) return s.split('');
  if (s.length <= SEGMENT_PIECE) return Array.from(segmenter.segment(s), (x) => x.segment);
  const out: string[] = [];
  let from = 0;
  while (from < s.length) {
    const end = Math.min(s.length, from + SEGMENT_PIECE);
    const parts = Array.from(segmenter.segment(s.slice(from, end)), (x) => x.segment);
    // The last cluster of a piece may go on in the next one: segment it again from its start.
    if (end < s.length && parts.length > 1) parts.pop();
    for (const p of parts) {
      out.push(p);
      from += p.length;
    }
  }
  return out;
}

const WIDTHS = new Map<string, number>();
const MAX_WIDTHS = 20_000;

/** Display width of one grapheme. */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  const known = WIDTHS.get(g);
  if (known !== undefined) return known;
  const w = stringWidth(g);
  if (WIDTHS.size >= MAX_WIDTHS) WIDTHS.clear();
  WIDTHS.set(g, w);
  return w;
}

/** Display width of a whole string in terminal columns (escape sequences count as nothing). */
export function displayWidth(s: string): number {
  if (ASCII.test(s)) return s.length;
  // Escape sequences are string-width's business; sanitised text never has them.
  if (s.includes('\x1b')) return stringWidth(s);
  let w = 0;
  for (const g of graphemes(s)) w += graphemeWidth(g);
  return w;
}
