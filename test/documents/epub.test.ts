import { describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/epub.js';
import {
  allText,
  bytesInput,
  documentError,
  expectedPhrases,
  fixtureInput,
} from './miscFixtures.js';

describe('EPUB', () => {
  it('reads the metadata and one unit per chapter, as Markdown (a book made by pandoc)', async () => {
    const doc = await extract(fixtureInput('ledger.epub'));
    const shown = allText(doc);
    for (const phrase of expectedPhrases('ledger.epub')) expect(shown).toContain(phrase);
    expect(doc.meta).toEqual([
      ['Title', 'The Lighthouse Ledger'],
      ['Author', 'Mira Okonkwo'],
      ['Language', 'en'],
      ['Date', '2023-06-01'],
      ['Publisher', 'Harbour Press'],
    ]);
    expect(doc.unitName).toBe('chapter');
    expect(doc.unitCount).toBe(3);
    expect(doc.units.map((u) => u.title)).toEqual([
      'Chapter 1: The Lighthouse Ledger',
      'Chapter 2: The Keeper',
      'Chapter 3: 灯塔',
    ]);
    expect(doc.units[1]!.markdown).toMatch(/^- +lamp oil$/m);
    expect(doc.units[2]!.markdown).toContain('| Day | Gulls |\n| --- | --- |\n| Mon | 77 |');
  });

  it('reads the chapters asked for, and says what the output cap left out', async () => {
    const one = await extract(fixtureInput('ledger.epub', { units: { from: 3, to: 3 } }));
    expect(one.units.map((u) => u.number)).toEqual([3]);
    const capped = await extract(fixtureInput('ledger.epub', {}, { maxChars: 120 }));
    expect(capped.notes.join('\n')).toMatch(/chapters \d-3 are not shown: the output cap of 120/);
  });

  it('a "billion laughs" in the package file and a chapter is never expanded', async () => {
    const input = fixtureInput('laughs.epub');
    const started = performance.now();
    const doc = await extract(input);
    expect(performance.now() - started).toBeLessThan(2000);
    const shown = allText(doc);
    expect(shown.length).toBeLessThan(5000);
    expect(shown).not.toContain('lollollol');
    expect(shown).toContain('seventy-seven gulls');
    expect(doc.notes.join('\n')).toContain('declares its own XML entities; they were not expanded');
  });

  it('a book that is not a ZIP, or has no package file, is named as malformed', async () => {
    const junk = await documentError(() => extract(bytesInput('junk.epub', 'plain text')));
    expect(junk.kind).toBe('malformed');
    expect(junk.message).toMatch(
      /^"junk.epub" is not a readable EPUB: it is not a readable ZIP container/,
    );
    const bundle = fixtureInput('bundle.zip');
    const empty = await documentError(() => extract({ ...bundle, name: 'odd.epub' }));
    expect(empty.message).toContain(
      '"odd.epub" is not a readable EPUB: its package file "META-INF/container.xml" is missing',
    );
  });

  it('a DRM-protected book is refused as encrypted, not read as noise', async () => {
    const e = await documentError(() => extract(fixtureInput('drm.epub')));
    expect(e.kind).toBe('encrypted');
    expect(e.message).toBe(
      '"drm.epub" is a DRM-protected e-book: its chapters are encrypted and cannot be read.',
    );
  });
});
