/**
 * OCR through the real engine (PaddleOCR models from the npm package, on onnxruntime-node):
 * the words must really be recognised. One file, so the engine loads once (~1.5 s).
 */
import { describe, expect, it } from 'vitest';
import { extract as extractImage } from '../../src/documents/image.js';
import { linesToText } from '../../src/documents/ocr.js';
import { restoreSpaces } from '../../src/documents/ocrSpaces.js';
import { extract as extractPdf } from '../../src/documents/pdf.js';
import { expectedPhrases, fixtureInput } from './fixtures.js';

// The engine's first load and a page each; generous for a loaded two-core machine.
const OCR_TIMEOUT = 90_000;

describe('OCR', () => {
  it(
    'reads a scanned PDF page with no text layer, marking the unit as OCR',
    async () => {
      const doc = await extractPdf(await fixtureInput('scanned-invoice.pdf'));
      expect(doc.unitCount).toBe(1);
      expect(doc.units[0]?.source).toBe('ocr');
      for (const phrase of await expectedPhrases('scanned-invoice.pdf')) {
        expect(doc.units[0]?.markdown).toContain(phrase);
      }
      expect(doc.notes.join(' ')).toContain('read by OCR');
    },
    OCR_TIMEOUT,
  );

  it(
    'reads Simplified Chinese and English in a photo of a sign',
    async () => {
      const doc = await extractImage(await fixtureInput('sign-zh-en.jpg'));
      expect(doc.kind).toBe('image');
      expect(doc.units[0]?.source).toBe('ocr');
      const text = doc.units[0]?.markdown ?? '';
      for (const phrase of await expectedPhrases('sign-zh-en.jpg')) expect(text).toContain(phrase);
      // Reading order: the Chinese heading before its English line.
      expect(text.indexOf('欢迎来到上海图书馆')).toBeLessThan(text.indexOf('Welcome to'));
    },
    OCR_TIMEOUT,
  );

  it('leaves a scanned page unread, and says so, when OCR is turned off', async () => {
    const doc = await extractPdf(await fixtureInput('scanned-invoice.pdf', { ocr: false }));
    expect(doc.units[0]?.markdown).toBe('');
    expect(doc.notes.join(' ')).toContain('Page 1 has no text layer (a scan?); OCR was turned off');
  });
});

describe('linesToText', () => {
  const box = (left: number, top: number, right: number, bottom: number): number[][] => [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ];

  it('orders boxes in rows, left to right, with a blank line at a tall gap', () => {
    const text = linesToText([
      { text: 'world', mean: 0.9, box: box(200, 10, 300, 40) },
      { text: 'Hello', mean: 0.9, box: box(10, 12, 150, 42) },
      { text: 'next line', mean: 0.9, box: box(10, 50, 200, 80) },
      { text: 'far below', mean: 0.9, box: box(10, 200, 200, 230) },
    ]);
    expect(text).toBe('Hello world\nnext line\n\nfar below');
  });

  it('drops unsure lines and puts a space between Chinese and Latin text', () => {
    const text = linesToText([
      { text: '下午三点Wednesday', mean: 0.95, box: box(0, 0, 100, 20) },
      { text: '#~%', mean: 0.2, box: box(0, 30, 100, 50) },
    ]);
    expect(text).toBe('下午三点 Wednesday');
  });
});

describe('restoreSpaces', () => {
  it('splits runs of glued English words and leaves words, names and identifiers alone', async () => {
    expect(await restoreSpaces('Paymentisduewithin thirtydaysofreceipt.')).toBe(
      'Payment is due within thirty days of receipt.',
    );
    expect(await restoreSpaces('Welcome to theShanghai Library')).toBe(
      'Welcome to the Shanghai Library',
    );
    expect(await restoreSpaces('THISSOFTWAREISPROVIDEDBYTHEAUTHOR')).toBe(
      'THIS SOFTWARE IS PROVIDED BY THE AUTHOR',
    );
    const untouched = 'Delivery to the Lindqvist bakery; FcConfigParse reads XMLtree files.';
    expect(await restoreSpaces(untouched)).toBe(untouched);
    expect(await restoreSpaces('欢迎来到上海图书馆')).toBe('欢迎来到上海图书馆');
  });
});
