import { describe, expect, it } from 'vitest';
import { decodeText, sniffBinaryType } from '../../src/tools/files/text.js';
import { GBK_HELLO } from './fixture.js';

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

  it('falls back to GBK when the bytes are not UTF-8', () => {
    expect(decodeText(GBK_HELLO)).toEqual({
      kind: 'text',
      text: '你好，世界',
      encoding: 'gbk',
      bom: false,
    });
  });

  it('honours UTF-16 byte-order marks', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]);
    expect(decodeText(le)).toMatchObject({ kind: 'text', text: 'hi', encoding: 'utf-16le' });
  });

  it('calls NUL bytes binary', () => {
    expect(decodeText(Buffer.from('abc\0def'))).toEqual({ kind: 'binary', type: 'binary data' });
  });

  it('calls many control bytes binary', () => {
    const bytes = Buffer.alloc(200, 0x41);
    for (let i = 0; i < 200; i += 10) bytes[i] = 0x01;
    expect(decodeText(bytes).kind).toBe('binary');
  });

  it('calls bytes that are neither UTF-8 nor GBK binary', () => {
    // 0x80 and 0xff are not valid GBK lead bytes, and not valid UTF-8 either.
    const bytes = Buffer.from(
      Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 0xff : i % 3 === 1 ? 0x80 : 0x41)),
    );
    expect(decodeText(bytes)).toMatchObject({
      kind: 'binary',
      type: expect.stringContaining('not valid UTF-8 or GBK'),
    });
  });

  it('names common binary formats by magic number', () => {
    expect(sniffBinaryType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe(
      'PNG image',
    );
    expect(sniffBinaryType(Buffer.from('%PDF-1.7'))).toBe('PDF document');
    expect(sniffBinaryType(Buffer.from('plain'))).toBeUndefined();
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
