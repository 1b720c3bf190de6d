/**
 * One sheet (of a workbook, or a CSV/TSV file) as Markdown: a line with its whole size, then
 * the rows shown as a table whose columns are named by letter (A, B, … AA) and whose first
 * column is the row number, so "rows 501–1000" and "column C" mean the same cells every
 * time. When rows are left out the line says which and how to read them.
 */
import { markdownTable } from './markdownTable.js';

/** Widest sheet shown in full; wider ones are cut with a note (a table past this is unreadable). */
export const MAX_COLUMNS = 60;

export interface SheetShape {
  /** The 1-based number of the first row in `cells`. */
  readonly firstRow: number;
  /** The 0-based index of the first column in `cells`. */
  readonly firstColumn: number;
  readonly totalRows: number;
  readonly totalColumns: number;
  /** The rows asked for (or the default window). */
  readonly asked: { readonly from: number; readonly to: number };
  /** Row 1, shown above a window that starts further down (it usually names the columns). */
  readonly headerRow?: readonly string[];
}

/** `0` → `A`, `25` → `Z`, `26` → `AA`. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

export function sheetMarkdown(cells: ReadonlyArray<readonly string[]>, shape: SheetShape): string {
  const { firstRow, firstColumn, totalRows, totalColumns } = shape;
  if (totalRows === 0 || cells.length === 0) {
    return totalRows === 0
      ? '(empty sheet)'
      : `${size(totalRows, totalColumns)}. No rows in ${shape.asked.from}–${shape.asked.to}: ` +
          `the sheet's rows are 1–${totalRows.toLocaleString('en')}.`;
  }
  const above = firstRow > 1 && shape.headerRow ? [shape.headerRow] : [];
  const width = Math.min(Math.max(...[...above, ...cells].map((r) => r.length)), MAX_COLUMNS);
  const lastRow = firstRow + cells.length - 1;
  const lines = [
    `${size(totalRows, totalColumns)}; ${span(firstRow, lastRow)} shown` +
      (above.length > 0 ? ', after row 1 for its headings.' : '.'),
  ];
  if (lastRow < totalRows) {
    const next = span(lastRow + 1, Math.min(totalRows, lastRow + (lastRow - firstRow + 1)));
    lines.push(
      `The sheet is cut: rows ${lastRow + 1}–${totalRows.toLocaleString('en')} are not shown; ` +
        `ask for ${next} to read on.`,
    );
  }
  if (totalColumns - firstColumn > MAX_COLUMNS) {
    lines.push(
      `Only columns ${columnName(firstColumn)}–${columnName(firstColumn + MAX_COLUMNS - 1)} of ` +
        `${totalColumns} are shown.`,
    );
  }
  const header = ['Row', ...Array.from({ length: width }, (_, i) => columnName(firstColumn + i))];
  const body = [
    ...above.map((row) => ['1', ...row.slice(0, width)]),
    ...cells.map((row, i) => [String(firstRow + i), ...row.slice(0, width)]),
  ];
  return `${lines.join(' ')}\n\n${markdownTable([header, ...body])}`;
}

/** `row 3` or `rows 3–9`. */
function span(from: number, to: number): string {
  return from === to ? `row ${from}` : `rows ${from}–${to}`;
}

function size(rows: number, columns: number): string {
  const s = (n: number, word: string): string =>
    `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
  return `${s(rows, 'row')} × ${s(columns, 'column')}`;
}
