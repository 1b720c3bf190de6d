/**
 * Text in the encodings users' files really come in is decoded, not refused: real files
 * written by iconv in Windows-1252, Latin-1, Shift-JIS, EUC-KR, Big5, GBK and UTF-16 with
 * and without a byte-order mark.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/documents/encoding.js';
import { sniffBinaryType } from '../../src/documents/magic.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const file = (rel: string): Promise<Buffer> => readFile(path.join(FIXTURES, rel));

describe('decodeText on real files', () => {
  it.each([
    [
      'documents/letter-windows1252.txt',
      'windows-1252',
      'crème brûlée for 4,50 € — “the best in town”',
    ],
    [
      'encodings/latin1.txt',
      'windows-1252',
      'Les élèves étudient à la école près de la forêt; garçon',
    ],
    [
      'documents/notes-shiftjis.txt',
      'shift_jis',
      '東京都千代田区の事務所で、来週の月曜日に打ち合わせを行います。',
    ],
    [
      'encodings/memo-euckr.txt',
      'euc-kr',
      '서울특별시 강남구 사무실에서 다음 주 월요일에 회의가 있습니다.',
    ],
    ['encodings/memo-big5.txt', 'big5', '臺北市信義區的辦公室，下週一開會討論預算。'],
    ['encodings/memo-gbk.txt', 'gb18030', '北京市海淀区的办公室，下周一开会讨论预算。'],
    [
      'documents/report-utf16le-nobom.txt',
      'utf-16le',
      'Revenue grew in the northern region; 季度报告',
    ],
    ['encodings/report-utf16be-nobom.txt', 'utf-16be', 'Revenue grew; 季度报告.'],
    ['encodings/report-utf16be-bom.txt', 'utf-16be', 'Revenue grew; 季度报告.'],
    ['encodings/report-utf16le-bom.txt', 'utf-16le', 'Revenue grew; 季度报告.'],
  ])('%s is %s', async (rel, encoding, phrase) => {
    const decoded = decodeText(await file(rel));
    expect(decoded).toMatchObject({ kind: 'text', encoding });
    expect(decoded.kind === 'text' && decoded.text).toContain(phrase);
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 strictly and reports a BOM', () => {
    expect(decodeText(Buffer.from('héllo 中文'))).toEqual({
      kind: 'text',
      text: 'héllo 中文',
      encoding: 'utf-8',
      bom: false,
    });
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x')]);
    expect(decodeText(withBom)).toEqual({ kind: 'text', text: 'x', encoding: 'utf-8', bom: true });
  });

  it('reads a short GBK text as GBK (Cogito users write Chinese)', () => {
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7]);
    expect(decodeText(gbk)).toMatchObject({
      kind: 'text',
      text: '你好，世界',
      encoding: 'gb18030',
    });
  });

  it('calls NUL bytes binary', () => {
    expect(decodeText(Buffer.from('abc\0def'))).toEqual({ kind: 'binary', type: 'binary data' });
  });

  it('calls many control bytes binary', () => {
    const bytes = Buffer.alloc(200, 0x41);
    for (let i = 0; i < 200; i += 10) bytes[i] = 0x01;
    expect(decodeText(bytes).kind).toBe('binary');
  });

  it('calls bytes that are in no encoding binary, not mojibake', () => {
    // Lone bytes Windows-1252 leaves unassigned, between ASCII letters.
    const bytes = Buffer.from(
      Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 0x41 : [0x81, 0x8d, 0x9d][i % 3]!)),
    );
    expect(decodeText(bytes).kind).toBe('binary');
  });

  it('names common binary formats by magic number', () => {
    expect(sniffBinaryType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe(
      'PNG image',
    );
    expect(sniffBinaryType(Buffer.from('%PDF-1.7'))).toBe('PDF document');
    expect(sniffBinaryType(Buffer.from('plain'))).toBeUndefined();
    expect(sniffBinaryType(Buffer.from('BMW sales figures for the year'))).toBeUndefined();
    expect(decodeText(Buffer.from('%PDF-1.7\nno NUL here'))).toEqual({
      kind: 'binary',
      type: 'PDF document',
    });
  });

  it('treats an empty file as UTF-8 text', () => {
    expect(decodeText(new Uint8Array())).toEqual({
      kind: 'text',
      text: '',
      encoding: 'utf-8',
      bom: false,
    });
  });
});
