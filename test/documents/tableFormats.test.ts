/**
 * Spreadsheets (.xlsx, .xls, .ods) and CSV/TSV: one unit per sheet as a Markdown table with
 * lettered columns and numbered rows, a row range for big sheets, the whole size said when
 * cut, encodings and delimiters found.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDelimiter, parseRows } from '../../src/documents/csv.js';
import { columnName } from '../../src/documents/sheetTable.js';
import { extractBytes, extractFixture } from './officeFixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cogito-tables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function onDisk(name: string, bytes: Uint8Array | string): Uint8Array {
  writeFileSync(path.join(dir, name), bytes);
  return new Uint8Array(readFileSync(path.join(dir, name)));
}

describe.each([
  ['xlsx', 'budget.xlsx'],
  ['xls', 'budget.xls'],
  ['ods', 'budget.ods'],
] as const)('.%s', (kind, file) => {
  it('gives one unit per sheet, values as shown (formula results), with the book facts first', async () => {
    const doc = await extractFixture(kind, file);
    expect(doc).toMatchObject({ kind, unitName: 'sheet', unitCount: 2 });
    expect(doc.meta).toEqual([
      ['Title', 'Harbour Budget 2026'],
      ['Author', 'Katherine Johnson'],
      ['Sheets', '2 ("Budget", "团队")'],
    ]);
    expect(doc.units.map((u) => u.title)).toEqual(['Sheet "Budget"', 'Sheet "团队"']);
    expect(doc.units[0]?.markdown).toBe(
      '4 rows × 4 columns; rows 1–4 shown.\n\n' +
        '| Row | A | B | C | D |\n| --- | --- | --- | --- | --- |\n' +
        '| 1 | Item | Cost | Quantity | Total |\n' +
        '| 2 | Beacon lamp | 120.5 | 4 | 482 |\n' +
        '| 3 | Rope, tarred \\| 50 m | 35 | 10 | 350 |\n' +
        '| 4 | Grand total |  |  | 832 |',
    );
  });

  it('reads one sheet by number, and a row range under row 1', async () => {
    const doc = await extractFixture(kind, file, {
      units: { from: 1, to: 1 },
      rows: { from: 3, to: 3 },
    });
    expect(doc.units).toHaveLength(1);
    expect(doc.units[0]?.markdown).toContain('row 3 shown, after row 1 for its headings');
    expect(doc.units[0]?.markdown).toContain('| 1 | Item | Cost | Quantity | Total |\n| 3 | Rope');
    expect(doc.units[0]?.markdown).toContain('ask for row 4 to read on');
  });
});

describe('a big workbook', () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [`ship ${i + 1}`, i + 1, (i + 1) * 2]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([['Name', 'Berth', 'Tons'], ...rows]),
    'Log',
  );
  const bytes = onDisk(
    'log.xlsx',
    XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
  );

  it('shows the first 500 rows, says the sheet size and the next range', async () => {
    const doc = await extractBytes('xlsx', 'log.xlsx', bytes);
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toMatch(
      /^5,001 rows × 3 columns; rows 1–500 shown\. The sheet is cut: rows 501–5,001 are not shown; ask for rows 501–1000 to read on\./,
    );
    expect(md).toContain('| 500 | ship 499 | 499 | 998 |');
    expect(md).not.toContain('ship 500 ');
  });

  it('reads a row range deep in the sheet', async () => {
    const doc = await extractBytes('xlsx', 'log.xlsx', bytes, { rows: { from: 4001, to: 4003 } });
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('| 1 | Name | Berth | Tons |\n| 4001 | ship 4000 | 4000 | 8000 |');
    expect(md).toContain('| 4003 | ship 4002 | 4002 | 8004 |');
    expect(md.split('\n').filter((l) => l.startsWith('| 4'))).toHaveLength(3);
  });
});

describe('CSV and TSV', () => {
  it('keeps quoted delimiters, doubled quotes and line breaks inside a field', async () => {
    const doc = await extractFixture('csv', 'sales.csv');
    expect(doc.meta).toEqual([
      ['Encoding', 'UTF-8'],
      ['Delimiter', 'comma'],
      ['Rows', '4'],
      ['Columns', '4'],
    ]);
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('| 2 | North | Lamp, brass | 12 | Said "urgent" twice |');
    expect(md).toContain('| 3 | South | Rope | 40 | Two lines:<br>first delivery late |');
  });

  it('decodes Shift-JIS and Windows-1252, and finds tab and semicolon delimiters', async () => {
    const sjis = await extractFixture('tsv', 'staff-sjis.tsv');
    expect(sjis.meta.slice(0, 2)).toEqual([
      ['Encoding', 'Shift-JIS'],
      ['Delimiter', 'tab'],
    ]);
    expect(sjis.units[0]?.markdown).toContain(
      '| 2 | 1 | 山田太郎 | 営業部 | 来月から東京の本社に異動します |',
    );
    const latin = await extractFixture('csv', 'menu-1252.csv');
    expect(latin.meta.slice(0, 2)).toEqual([
      ['Encoding', 'Windows-1252'],
      ['Delimiter', 'semicolon'],
    ]);
    expect(latin.units[0]?.markdown).toContain('| 2 | Café crème | 3,50 | très bonne |');
  });

  it('finds the delimiter that splits every line alike, quotes and all', () => {
    expect(detectDelimiter('a;b;c\n1;"2;3";4\n')).toBe(';');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('name,note\nx,"a; b; c"\n')).toBe(',');
    expect([...parseRows('a,"b\r\nc"\r\nd,e', ',')]).toEqual([
      ['a', 'b\r\nc'],
      ['d', 'e'],
    ]);
  });

  it('reads a row range of a 20,000-row file and says its size', async () => {
    const text = [
      'id,value',
      ...Array.from({ length: 20_000 }, (_, i) => `${i + 1},v${i + 1}`),
    ].join('\n');
    const bytes = onDisk('big.csv', text);
    const first = await extractBytes('csv', 'big.csv', bytes);
    expect(first.units[0]?.markdown).toMatch(
      /^20,001 rows × 2 columns; rows 1–500 shown\. The sheet is cut/,
    );
    const deep = await extractBytes('csv', 'big.csv', bytes, {
      rows: { from: 15_001, to: 15_002 },
    });
    expect(deep.units[0]?.markdown).toContain(
      '| 1 | id | value |\n| 15001 | 15000 | v15000 |\n| 15002 | 15001 | v15001 |',
    );
  });

  it('refuses binary data named .csv', async () => {
    const png = onDisk('photo.csv', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    await expect(extractBytes('csv', 'photo.csv', png)).rejects.toThrow(
      /"photo\.csv" is not a CSV\/TSV text file/,
    );
  });
});

it('names columns like a spreadsheet', () => {
  expect([0, 25, 26, 51, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA']);
});
