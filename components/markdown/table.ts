/**
 * A Markdown table laid out by display width (CJK and emoji count two columns): columns as
 * wide as their widest cell, shrunk (widest first) when the table would not fit, with the
 * cells of a shrunk column wrapped onto more rows.
 */
import type { Tokens } from 'marked';
import { inlineSpans } from './inline.js';
import { padSpans, spansWidth, withStyle, wrapSpans, type Span } from './spans.js';

const SEP = ' │ ';
const RULE_SEP = '─┼─';
const MIN_COL = 3;
const BORDER = { dimColor: true };

type Align = 'left' | 'right' | 'center' | null;

/** Column widths that fit `width` in all: natural widths, the widest cut down first. */
export function fitColumns(natural: readonly number[], width: number): number[] {
  const cols = natural.map((w) => Math.max(1, w));
  const budget = width - SEP.length * Math.max(0, cols.length - 1);
  let total = cols.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = 0;
    for (let i = 1; i < cols.length; i++) if (cols[i]! > cols[widest]!) widest = i;
    if (cols[widest]! <= MIN_COL) break;
    cols[widest]! -= 1;
    total -= 1;
  }
  return cols;
}

function aligned(spans: readonly Span[], width: number, align: Align): Span[] {
  const gap = Math.max(0, width - spansWidth(spans));
  if (align === 'right') return [{ text: ' '.repeat(gap) }, ...spans];
  if (align === 'center') {
    const left = Math.floor(gap / 2);
    return [{ text: ' '.repeat(left) }, ...spans, { text: ' '.repeat(gap - left) }];
  }
  return padSpans(spans, width);
}

/** One table row: its cells wrapped to their columns, side by side. */
function rowLines(
  cells: readonly Span[][],
  cols: readonly number[],
  align: readonly Align[],
): Span[][] {
  const wrapped = cols.map((w, i) =>
    (cells[i] ?? []).length === 0 ? [[]] : wrapSpans(cells[i]!, w),
  );
  const height = Math.max(1, ...wrapped.map((w) => w.length));
  const out: Span[][] = [];
  for (let r = 0; r < height; r++) {
    const line: Span[] = [];
    cols.forEach((w, i) => {
      if (i > 0) line.push({ text: SEP, style: BORDER });
      line.push(...aligned(wrapped[i]![r] ?? [], w, align[i] ?? null));
    });
    out.push(line);
  }
  return out;
}

/** The styled lines of `table` fitted to `width` columns. */
export function tableLines(table: Tokens.Table, width: number): Span[][] {
  const header = table.header.map((c) => withStyle(cellSpans(c), { bold: true }));
  const body = table.rows.map((row) => row.map(cellSpans));
  const count = Math.max(header.length, ...body.map((r) => r.length));
  const natural = Array.from({ length: count }, (_, i) =>
    Math.max(MIN_COL, ...[header, ...body].map((r) => spansWidth(r[i] ?? []))),
  );
  const cols = fitColumns(natural, width);
  const rule: Span[] = [{ text: cols.map((w) => '─'.repeat(w)).join(RULE_SEP), style: BORDER }];
  return [
    ...rowLines(header, cols, table.align),
    rule,
    ...body.flatMap((r) => rowLines(r, cols, table.align)),
  ];
}

/** A cell's spans on one line (a `<br>` inside a cell becomes a space). */
function cellSpans(cell: Tokens.TableCell): Span[] {
  return inlineSpans(cell.tokens).map((s) => ({ ...s, text: s.text.replace(/\n/g, ' ') }));
}
