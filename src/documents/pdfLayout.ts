/**
 * A PDF page's text runs, as pdf.js gives them, turned into Markdown lines and paragraphs.
 *
 * pdf.js hands out runs of text with a position and a size, in the order the page's content
 * stream draws them; that order is the reading order of nearly every producer (columns one
 * after the other, a header before the body), so it is kept, and only the geometry decides
 * where a line ends, where a word gap is and where a paragraph starts. A line much larger
 * than the page's body text becomes a heading. Pure, so it is tested on made-up runs.
 */

/** One run of text: the fields of pdf.js's `TextItem` this needs. */
export interface TextRun {
  readonly str: string;
  /** pdf.js's transform `[a, b, c, d, x, y]`; y grows upwards. */
  readonly transform: readonly number[];
  readonly width: number;
  readonly height: number;
  readonly hasEOL?: boolean;
}

interface Line {
  text: string;
  readonly x: number;
  readonly y: number;
  readonly size: number;
  xEnd: number;
}

/** How far below the previous line (in line heights) a line must start to open a paragraph. */
const PARAGRAPH_GAP = 1.7;
/** How much larger than the body text a short line must be to read as a heading. */
const HEADING_RATIO = 1.25;
const HEADING_MAX_CHARS = 120;

function sizeOf(run: TextRun): number {
  const [, , c = 0, d = 0] = run.transform;
  return Math.hypot(c, d) || run.height || 1;
}

/** Groups runs into lines: a run continues the line it is level with and to the right of. */
function toLines(runs: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const run of runs) {
    const x = run.transform[4] ?? 0;
    const y = run.transform[5] ?? 0;
    const size = sizeOf(run);
    if (run.str.length === 0) {
      if (run.hasEOL) current = undefined;
      continue;
    }
    const continues =
      current !== undefined &&
      Math.abs(y - current.y) <= Math.max(size, current.size) * 0.5 &&
      x >= current.xEnd - Math.max(size, current.size) * 0.6;
    if (current !== undefined && continues) {
      const gap = x - current.xEnd;
      if (gap > size * 0.15 && !current.text.endsWith(' ') && !run.str.startsWith(' ')) {
        current.text += ' ';
      }
      current.text += run.str;
      current.xEnd = Math.max(current.xEnd, x + run.width);
    } else {
      current = { text: run.str, x, y, size, xEnd: x + run.width };
      lines.push(current);
    }
    if (run.hasEOL) current = undefined;
  }
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }));
}

/** The size most of the page's characters are set in: the body text. */
function bodySize(lines: readonly Line[]): number {
  const chars = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.size * 2) / 2;
    chars.set(size, (chars.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of chars) {
    if (count > bestCount) [best, bestCount] = [size, count];
  }
  return best;
}

/** How full (of the page's widest line) a line must be for the next to be its wrapped continuation. */
const FULL_LINE = 0.85;
const CJK_EDGE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * How a line follows the previous one in the same paragraph: a line that ran to the right
 * margin wrapped, so the two are joined (no space between CJK text, none after a word broken
 * by a hyphen); after a short line (a list item, an address line) the break is kept.
 */
function joiner(previous: Line, line: Line, right: number, left: number): string {
  if (previous.xEnd - left < (right - left) * FULL_LINE) return '\n';
  if (/\p{L}-$/u.test(previous.text)) return '';
  if (CJK_EDGE.test(previous.text.at(-1) ?? '') || CJK_EDGE.test(line.text[0] ?? '')) return '';
  return ' ';
}

/**
 * A page's runs as Markdown: wrapped lines joined into paragraphs, short lines kept as lines,
 * paragraphs separated by a blank line, lines set much larger than the body as `###` headings.
 */
export function pageMarkdown(runs: readonly TextRun[]): string {
  const lines = toLines(runs).filter((line) => line.text.length > 0);
  const body = bodySize(lines);
  const right = Math.max(...lines.map((line) => line.xEnd));
  const left = Math.min(...lines.map((line) => line.x));
  let out = '';
  let previous: Line | undefined;
  for (const line of lines) {
    const heading = line.size >= body * HEADING_RATIO && line.text.length <= HEADING_MAX_CHARS;
    if (previous !== undefined) {
      const drop = previous.y - line.y;
      const height = Math.max(previous.size, line.size);
      const newParagraph =
        heading ||
        previous.size >= body * HEADING_RATIO ||
        drop > height * PARAGRAPH_GAP ||
        drop < -height;
      out += newParagraph ? '\n\n' : joiner(previous, line, right, left);
    }
    out += heading ? `### ${line.text}` : line.text;
    previous = line;
  }
  return out;
}
