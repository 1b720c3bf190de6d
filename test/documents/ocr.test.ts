/**
 * OCR through the real engine (PaddleOCR models from the npm package, on onnxruntime-node):
 * the words must really be recognised. One file, so the engine loads once (~1.5 s).
 */
import { describe, expect, it } from 'vitest';
import { extract as extractImage } from '../../src/documents/image.js';
import { linesToText } from '../../src/documents/ocr.js';
import { ctcDecode } from '../../src/documents/ocrDecode.js';
import { joinHyphenated } from '../../src/documents/ocrHyphens.js';
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

describe('joinHyphenated', () => {
  const known = new Set(['customization', 'self', 'contained', 'and', 'application']);
  const isWord = (word: string): boolean => known.has(word);

  it('puts a word hyphenated at a line end back together on the first line', () => {
    expect(joinHyphenated('configuration, cus-\ntomization and application', isWord)).toBe(
      'configuration, customization\nand application',
    );
  });

  it('keeps the hyphen of a compound of two words, and joins pieces that are no words', () => {
    expect(joinHyphenated('a self-\ncontained unit', isWord)).toBe('a self-contained\nunit');
    expect(joinHyphenated('the rasteri-\nzer', isWord)).toBe('the rasterizer');
  });

  it('leaves a hyphen before a capital, a blank line or a number, and a dash alone', () => {
    const untouched = 'Centre-\nVal de Loire\nsee-\n\nnext\npages 3-\n4\nwait -\nthen';
    expect(joinHyphenated(untouched, isWord)).toBe(untouched);
  });
});

describe('ctcDecode', () => {
  const alphabet = ['a', 'b', ' '];
  // Rows are steps; columns are blank, a, b, space.
  const steps = [
    [0.1, 0.8, 0.05, 0.05], // a
    [0.1, 0.8, 0.05, 0.05], // a again: one a
    [0.7, 0.1, 0.1, 0.1], // blank (a space at 0.1)
    [0.1, 0.8, 0.05, 0.05], // a after a blank: a second a
    [0.6, 0.05, 0.05, 0.3], // blank, but a space ranks second
    [0.1, 0.05, 0.8, 0.05], // b
  ];
  const flat = steps.flat();

  it('collapses repeats, drops blanks and keeps where each character was seen', () => {
    const chars = ctcDecode(flat, steps.length, 4, alphabet);
    expect(chars.map((c) => c.char).join('')).toBe('aab');
    expect(chars.map((c) => c.step)).toEqual([0, 3, 5]);
    expect(chars[0]?.confidence).toBeCloseTo(0.8);
  });

  it('keeps a space the recogniser ranked second once spaces weigh more', () => {
    const chars = ctcDecode(flat, steps.length, 4, alphabet, 5);
    expect(chars.map((c) => c.char).join('')).toBe('aa b');
    // The confidence stays the recogniser's own probability, not the weighted score.
    expect(chars[2]?.confidence).toBeCloseTo(0.3);
  });
});
