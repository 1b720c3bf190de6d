/**
 * How the documents bench scores OCR: words as multisets, Chinese a character at a time, and
 * the true words a reader missed (what its per-page rows list).
 */
import { describe, expect, it } from 'vitest';
import { missedWords, recall, words } from '../../bench/documents.js';
import { parseBenchArgs } from '../../bench/lib/report.js';

describe('documents bench scoring', () => {
  it('counts Latin runs lower-cased, digits apart and Chinese one character at a time', () => {
    expect(words('Opening hours: 9am, 欢迎 Library')).toEqual([
      'opening',
      'hours',
      '9',
      'am',
      '欢',
      '迎',
      'library',
    ]);
  });

  it('gives the share of true words found and lists the missed ones, most often first', () => {
    const truth = words('the mime type of the file is the mime type');
    const read = words('the mimetype of thefile is the mime type');
    expect(recall(truth, read)).toBeCloseTo(6 / 10);
    expect(missedWords(truth, read)).toEqual(['file', 'the', 'mime', 'type']);
    expect(missedWords(words('fc config fc parse fc'), words('config'))).toEqual([
      'fc ×3',
      'parse',
    ]);
    expect(missedWords(truth, truth)).toEqual([]);
  });

  it('reads --only=<part> alongside --quick', () => {
    expect(parseBenchArgs(['--only=ocr'])).toEqual({ quick: false, only: 'ocr' });
    expect(parseBenchArgs(['--quick'])).toEqual({ quick: true, only: undefined });
  });
});
