import { describe, expect, it } from 'vitest';
import {
  charsetFromContentType,
  charsetFromMeta,
  decodeBody,
} from '../../../src/tools/web/charset.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    ),
  );

describe('charset detection', () => {
  it('reads the header charset, quoted or not', () => {
    expect(charsetFromContentType('text/html; charset=GBK')).toBe('gbk');
    expect(charsetFromContentType('text/html;charset="Shift_JIS"')).toBe('shift_jis');
    expect(charsetFromContentType('text/html')).toBeUndefined();
    expect(charsetFromContentType(null)).toBeUndefined();
  });

  it('reads <meta charset> and <meta http-equiv>', () => {
    expect(charsetFromMeta(bytes('<html><head><meta charset="big5"></head>'))).toBe('big5');
    expect(
      charsetFromMeta(
        bytes("<meta http-equiv='Content-Type' content='text/html; charset=gb18030'>"),
      ),
    ).toBe('gb18030');
    expect(
      charsetFromMeta(bytes('<meta name="viewport" content="width=device-width">')),
    ).toBeUndefined();
    expect(charsetFromMeta(bytes('<meta charset="utf-16">'))).toBe('utf-8');
  });

  it.each([
    ['gbk', [0xc4, 0xe3, 0xba, 0xc3], '你好'],
    ['gb2312', [0xd6, 0xd0, 0xce, 0xc4], '中文'],
    ['gb18030', [0xd6, 0xd0, 0xce, 0xc4], '中文'],
    ['big5', [0xa4, 0xa4, 0xa4, 0xe5], '中文'],
    ['shift_jis', [0x93, 0xfa, 0x96, 0x7b], '日本'],
    ['utf-8', [0xe4, 0xb8, 0xad], '中'],
  ])('decodes %s', (label, raw, expected) => {
    expect(decodeBody(bytes(raw), `text/html; charset=${label}`).text).toBe(expected);
    expect(decodeBody(bytes(`<meta charset="${label}">`, raw), 'text/html').text).toContain(
      expected,
    );
  });

  it('puts a BOM before the header, the header before <meta>, and falls back to UTF-8', () => {
    expect(
      decodeBody(bytes([0xef, 0xbb, 0xbf, 0xe4, 0xb8, 0xad]), 'text/html; charset=gbk'),
    ).toEqual({ text: '中', encoding: 'utf-8' });
    expect(
      decodeBody(bytes('<meta charset="big5">', [0xc4, 0xe3]), 'text/html; charset=gbk').text,
    ).toContain('你');
    expect(
      decodeBody(
        bytes('<meta charset="no-such-thing">', [0xe4, 0xb8, 0xad]),
        'text/html; charset=bogus',
      ).encoding,
    ).toBe('utf-8');
  });

  it('does not look for <meta> in non-HTML bodies', () => {
    expect(
      decodeBody(bytes('<meta charset="gbk">', [0xe4, 0xb8, 0xad]), 'text/plain', false).text,
    ).toContain('中');
  });
});
