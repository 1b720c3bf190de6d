/**
 * CSV and TSV files as one sheet: the encoding found as for any text file (encoding.ts:
 * UTF-8, UTF-16, GBK, Shift-JIS, Windows-1252…), the delimiter found (comma,
 * semicolon, tab or pipe: the one that splits the first lines into the same number of
 * fields), quoted fields with embedded delimiters, quotes and line breaks. The whole file is
 * scanned to count its rows, but only the rows shown are kept.
 */
import { decodeText, encodingLabel } from './encoding.js';
import { DEFAULT_ROWS } from './sheets.js';
import { sheetMarkdown } from './sheetTable.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const decoded = decodeText(input.bytes);
  if (decoded.kind === 'binary') {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not a CSV/TSV text file: it holds ${decoded.type}.`,
    );
  }
  const { text, encoding } = decoded;
  const tsv = /\.tsv$/i.test(input.name);
  const delimiter = tsv ? '\t' : detectDelimiter(text);
  const asked = input.options.rows ?? { from: 1, to: DEFAULT_ROWS };
  const kept: string[][] = [];
  let header: string[] | undefined;
  let rows = 0;
  let columns = 0;
  for (const row of parseRows(text, delimiter)) {
    rows++;
    columns = Math.max(columns, row.length);
    if (rows === 1) header = row;
    if (rows >= asked.from && rows <= asked.to) kept.push(row);
  }
  const first = Math.max(1, asked.from);
  const shown = sheetMarkdown(kept, {
    firstRow: first,
    firstColumn: 0,
    totalRows: rows,
    totalColumns: columns,
    asked,
    headerRow: header,
  });
  const kind = tsv || delimiter === '\t' ? 'tsv' : 'csv';
  const wanted = input.options.units;
  const outOfRange = wanted !== undefined && (wanted.from > 1 || wanted.to < 1);
  return {
    kind,
    label: kind === 'tsv' ? 'TSV table' : 'CSV table',
    meta: [
      ['Encoding', encodingLabel(encoding)],
      ['Delimiter', DELIMITER_NAMES[delimiter] ?? delimiter],
      ['Rows', rows.toLocaleString('en')],
      ['Columns', String(columns)],
    ],
    unitName: 'sheet',
    unitCount: 1,
    units: outOfRange
      ? []
      : [{ number: 1, title: `Table "${input.name}"`, markdown: cap(shown, input) }],
    notes: [
      ...(outOfRange
        ? [`There is no sheet ${wanted.from}: "${input.name}" is one table (sheet 1).`]
        : []),
      ...(shown.length > input.limits.maxChars
        ? [
            `Output cap of ${input.limits.maxChars.toLocaleString('en')} characters reached: ask for fewer rows.`,
          ]
        : []),
    ],
  };
}

const DELIMITER_NAMES: Readonly<Record<string, string>> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  '|': 'pipe',
};

function cap(markdown: string, input: ExtractInput): string {
  if (markdown.length <= input.limits.maxChars) return markdown;
  return markdown.slice(0, Math.max(0, markdown.lastIndexOf('\n', input.limits.maxChars)));
}

/** The delimiter that splits the first rows into the most fields, the same number on each. */
export function detectDelimiter(text: string): string {
  const sample = text.slice(0, 64 * 1024);
  let best = ',';
  let bestScore = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const counts = [...take(parseRows(sample, candidate), 20)].map((row) => row.length);
    const fields = counts[0] ?? 1;
    if (fields < 2) continue;
    const agreeing = counts.filter((c) => c === fields).length;
    const score = (agreeing / counts.length) * 1000 + fields;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function* take<T>(items: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  let i = 0;
  for (const item of items) {
    yield item;
    if (++i >= n) return;
  }
}

/** RFC 4180 rows: quoted fields may hold the delimiter, `""` for a quote, and line breaks. */
export function* parseRows(text: string, delimiter: string): Generator<string[]> {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      yield row;
      row = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    yield row;
  }
}
