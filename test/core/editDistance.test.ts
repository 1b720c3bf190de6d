import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/core/editDistance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('thinkIntervallMs', 'thinkIntervalMs')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('counts a swap of two adjacent letters as one edit', () => {
    expect(editDistance('wirte', 'write')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
    // Optimal string alignment: a swapped pair is not edited again ("ca" → "abc" is 3).
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('is symmetric and case-sensitive', () => {
    expect(editDistance('firefox', 'fierfox')).toBe(editDistance('fierfox', 'firefox'));
    expect(editDistance('Read', 'read')).toBe(1);
  });
});
