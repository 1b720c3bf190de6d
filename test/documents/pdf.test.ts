import { describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/pdf.js';
import { DEFAULT_LIMITS } from '../../src/documents/types.js';
import { expectedPhrases, failure, fixtureInput, textInput } from './fixtures.js';

const REPORT = 'harbour-report.pdf';

describe('PDF text layer', () => {
  it('gives title, author and page count up front and one unit per page', async () => {
    const doc = await extract(await fixtureInput(REPORT));
    expect(doc.kind).toBe('pdf');
    expect(doc.meta).toEqual(
      expect.arrayContaining([
        ['Title', 'Harbour Survey'],
        ['Author', 'Ingrid Olsen'],
        ['Pages', '3'],
      ]),
    );
    expect(doc.meta.slice(0, 3).map(([label]) => label)).toEqual(['Title', 'Author', 'Pages']);
    expect(doc.unitName).toBe('page');
    expect(doc.unitCount).toBe(3);
    expect(doc.units.map((unit) => [unit.number, unit.title])).toEqual([
      [1, 'Page 1'],
      [2, 'Page 2'],
      [3, 'Page 3'],
    ]);
    expect(doc.units.every((unit) => unit.source === undefined)).toBe(true);
    const all = doc.units.map((unit) => unit.markdown).join('\n');
    for (const phrase of await expectedPhrases(REPORT)) {
      if (doc.meta.some(([, value]) => value === phrase)) continue;
      expect(all).toContain(phrase);
    }
  });

  it('marks the larger lines as headings and keeps paragraphs apart', async () => {
    const doc = await extract(await fixtureInput(REPORT));
    expect(doc.units[0]?.markdown).toMatch(/^### Harbour Survey 2026\n\nThe northern breakwater/);
    expect(doc.units[0]?.markdown).toContain('\n\n### Findings\n\nTidal gauges');
  });

  it('reads only the pages asked for, and says when the range is past the end', async () => {
    const doc = await extract(await fixtureInput(REPORT, { units: { from: 2, to: 3 } }));
    expect(doc.unitCount).toBe(3);
    expect(doc.units.map((unit) => unit.number)).toEqual([2, 3]);
    expect(doc.units[0]?.markdown).toContain('Chapter two covers the budget');
    const past = await extract(await fixtureInput(REPORT, { units: { from: 7, to: 9 } }));
    expect(past.units).toEqual([]);
    expect(past.notes.join(' ')).toContain('has 3 pages; there is no page 7');
  });

  it('stops at the output cap and says which pages to read next', async () => {
    const doc = await extract(await fixtureInput(REPORT, {}, { ...DEFAULT_LIMITS, maxChars: 200 }));
    const chars = doc.units.reduce((sum, unit) => sum + unit.markdown.length, 0);
    expect(chars).toBeLessThanOrEqual(200);
    expect(doc.units.map((unit) => unit.number)).toEqual([1]);
    expect(doc.notes.join(' ')).toMatch(/output cap of 200 characters.*Read pages 2-3 separately/);
  });

  it('refuses an encrypted PDF as password-protected, naming the file', async () => {
    const error = await failure(extract(await fixtureInput('encrypted.pdf')));
    expect(error.kind).toBe('encrypted');
    expect(error.message).toContain('encrypted.pdf is a password-protected PDF');
  });

  it('refuses garbage, an empty file and a cut-off PDF as malformed, naming the file', async () => {
    const garbage = await failure(
      extract(textInput('fake.pdf', '%PDF-1.7\nthis is not really a PDF at all\n')),
    );
    expect(garbage.kind).toBe('malformed');
    expect(garbage.message).toMatch(/^fake\.pdf is not a readable PDF/);
    const empty = await failure(extract(textInput('empty.pdf', '')));
    expect(empty.kind).toBe('malformed');
    expect(empty.message).toContain('empty.pdf is empty');
    const whole = await fixtureInput(REPORT);
    const cut = await failure(
      extract({ ...whole, name: 'cut.pdf', bytes: whole.bytes.subarray(0, 300) }),
    );
    expect(cut.kind).toBe('malformed');
    expect(cut.message).toContain('cut.pdf');
  });

  it('leaves the caller’s bytes intact (pdf.js works on a copy)', async () => {
    const input = await fixtureInput(REPORT);
    await extract(input);
    expect(input.bytes.byteLength).toBeGreaterThan(1000);
    expect(String.fromCharCode(...input.bytes.subarray(0, 5))).toBe('%PDF-');
  });
});
