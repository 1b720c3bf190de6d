/**
 * Spreadsheets (.xlsx, .xls, .ods) through SheetJS: one unit per sheet, each a Markdown table
 * of the values as the file shows them (formatted numbers and dates, formula results), its
 * columns named by letter and its rows by number, so a range asked for later means the same
 * cells. A sheet shows at most {@link DEFAULT_ROWS} rows unless `options.rows` asks for
 * others, and says its whole size when cut. SheetJS inflates ZIP-based books with no limit
 * of its own, so those are vetted first (see zipParts.ts).
 */
import * as XLSX from '@e965/xlsx';
import type { NumberedUnit } from './unitWindow.js';
import { capUnits, unitRange } from './unitWindow.js';
import { sheetMarkdown } from './sheetTable.js';
import type { DocumentKind, ExtractInput, ExtractedDocument } from './types.js';
import { libraryFailure } from './types.js';
import { isCompoundFile, isEncryptedPackage, vetPackage } from './zipParts.js';

/** Rows of a sheet shown when no row range is asked for. */
export const DEFAULT_ROWS = 500;

const LABELS: Partial<Record<DocumentKind, string>> = {
  xlsx: 'Excel workbook',
  xls: 'Excel 97–2003 workbook',
  ods: 'OpenDocument spreadsheet',
};

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const kind: DocumentKind = /\.ods$/i.test(input.name)
    ? 'ods'
    : /\.xls$/i.test(input.name)
      ? 'xls'
      : 'xlsx';
  const label = LABELS[kind] ?? 'spreadsheet';
  // A compound file is an .xls (read by SheetJS as it is) unless it is an encrypted .xlsx.
  if (!isCompoundFile(input.bytes) || isEncryptedPackage(input.bytes)) vetPackage(input, label);
  const rows = input.options.rows ?? { from: 1, to: DEFAULT_ROWS };
  const names = readBook(input, { bookSheets: true }).SheetNames;
  const range = unitRange(input, names.length, 'sheet');
  const wanted = names.slice(range.from - 1, range.to);
  const book =
    wanted.length > 0
      ? readBook(input, { dense: true, sheets: wanted, sheetRows: rows.to })
      : undefined;
  const units: NumberedUnit[] = [];
  for (let n = range.from; n <= range.to; n++) {
    const name = names[n - 1] ?? '';
    const sheet = book?.Sheets[name];
    const hidden = book?.Workbook?.Sheets?.[n - 1]?.Hidden ? ' (hidden)' : '';
    units.push({
      number: n,
      title: `Sheet "${name}"${hidden}`,
      markdown: sheet ? sheetUnit(sheet, rows) : '(no cells)',
    });
  }
  const capped = capUnits(units, input, 'sheet', range.to);
  return {
    kind,
    label,
    meta: [...bookMeta(book ?? readBook(input, { bookProps: true })), ['Sheets', sheetList(names)]],
    unitName: 'sheet',
    unitCount: names.length,
    units: capped.units,
    notes: [...range.notes, ...capped.notes],
  };
}

function readBook(input: ExtractInput, opts: XLSX.ParsingOptions): XLSX.WorkBook {
  try {
    return XLSX.read(input.bytes, {
      type: 'array',
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
      ...opts,
    });
  } catch (error) {
    throw libraryFailure(input.name, error, 'a spreadsheet');
  }
}

function sheetUnit(sheet: XLSX.WorkSheet, rows: { from: number; to: number }): string {
  const full = XLSX.utils.decode_range(sheet['!fullref'] ?? sheet['!ref'] ?? 'A1:A1');
  if (!sheet['!ref']) return '(empty sheet)';
  const read = XLSX.utils.decode_range(sheet['!ref']);
  const from = Math.max(rows.from - 1, read.s.r);
  const to = Math.min(rows.to - 1, read.e.r);
  const cells =
    from <= to
      ? (XLSX.utils.sheet_to_json(sheet, {
          header: 1,
          raw: false,
          defval: '',
          blankrows: true,
          range: { s: { r: from, c: full.s.c }, e: { r: to, c: full.e.c } },
        }) as string[][])
      : [];
  const headerRow =
    from > 0
      ? (XLSX.utils.sheet_to_json(sheet, {
          header: 1,
          raw: false,
          defval: '',
          range: { s: { r: 0, c: full.s.c }, e: { r: 0, c: full.e.c } },
        })[0] as unknown[] | undefined)
      : undefined;
  return sheetMarkdown(
    cells.map((r) => r.map(String)),
    {
      headerRow: headerRow?.map(String),
      firstRow: from + 1,
      firstColumn: full.s.c,
      totalRows: full.e.r + 1,
      totalColumns: full.e.c + 1,
      asked: rows,
    },
  );
}

function sheetList(names: readonly string[]): string {
  return `${names.length} (${names.map((n) => `"${n}"`).join(', ')})`;
}

function bookMeta(book: XLSX.WorkBook): Array<readonly [string, string]> {
  const props = book.Props ?? {};
  const meta: Array<readonly [string, string]> = [];
  if (props.Title) meta.push(['Title', props.Title]);
  if (props.Subject) meta.push(['Subject', props.Subject]);
  if (props.Author) meta.push(['Author', props.Author]);
  for (const [label, date] of [
    ['Created', props.CreatedDate],
    ['Modified', props.ModifiedDate],
  ] as const) {
    const when = date ? new Date(date) : undefined;
    // Files that never set a date store the zero FILETIME (1601).
    if (when && when.getUTCFullYear() > 1980) meta.push([label, when.toISOString().slice(0, 10)]);
  }
  return meta;
}
