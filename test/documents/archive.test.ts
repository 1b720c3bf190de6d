import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extract, memberBytes } from '../../src/documents/archive.js';
import {
  FIXTURES,
  allText,
  bytesInput,
  documentError,
  expectedPhrases,
  fixtureInput,
} from './miscFixtures.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('archives: the member list', () => {
  it.each(['bundle.zip', 'bundle.tar', 'bundle.tar.gz', 'harvest.txt.gz'])(
    '%s lists its members with sizes and dates, as a table',
    async (name) => {
      const doc = await extract(fixtureInput(name));
      const shown = allText(doc);
      for (const phrase of expectedPhrases(name)) expect(shown).toContain(phrase);
      expect(doc.unitName).toBe('member');
      expect(doc.units[0]!.markdown).toMatch(/^\| # \| Name \| Size \| Modified \|/);
      expect(shown).toContain('2024-03-15 09:30');
      expect(shown).toContain(`read("${name}::`);
    },
  );

  it('counts files and folders and says which members are archives themselves', async () => {
    const doc = await extract(fixtureInput('bundle.zip'));
    expect(doc.kind).toBe('zip');
    expect(doc.meta).toContainEqual(['Members', '3 files, 2 folders']);
    expect(doc.notes.join('\n')).toMatch(
      /1 member is an archive or packaged document; read inside with more "::"/,
    );
  });

  it('a tar.gz is read as the tar inside it', async () => {
    const doc = await extract(fixtureInput('bundle.tar.gz'));
    expect(doc.label).toBe('tar.gz archive');
    expect(doc.unitCount).toBe(5);
  });

  it('lists a range of members and says how to get the rest past the output cap', async () => {
    const some = await extract(fixtureInput('bundle.zip', { units: { from: 2, to: 3 } }));
    expect(some.units[0]!.title).toBe('Members 2-3 of 5');
    expect(some.units[0]!.markdown.split('\n')).toHaveLength(4);
    const capped = await extract(fixtureInput('bundle.zip', {}, { maxChars: 80 }));
    expect(capped.notes.join('\n')).toMatch(/members \d-5 are not listed .* ask for members/);
  });
});

describe('archives: one member', () => {
  it('returns a member by name from zip, tar, tar.gz and gz', async () => {
    for (const name of ['bundle.zip', 'bundle.tar', 'bundle.tar.gz']) {
      const bytes = await memberBytes(fixtureInput(name, { member: 'notes/readme.txt' }));
      expect(text(bytes)).toContain('4,200 kilograms of apricots');
      const chinese = await memberBytes(fixtureInput(name, { member: '报告/摘要.txt' }));
      expect(text(chinese)).toContain('本季度杏子收成为四千二百公斤');
    }
    const gz = await memberBytes(fixtureInput('harvest.txt.gz', { member: 'harvest.txt' }));
    expect(text(gz)).toContain('apricots');
  });

  it('follows an archive inside an archive with more "::"', async () => {
    const bytes = await memberBytes(
      fixtureInput('bundle.zip', { member: 'notes/inner.zip::inner.txt' }),
    );
    expect(text(bytes)).toContain('77 gulls');
  });

  it('names the nearest members when the one asked for is not there', async () => {
    const e = await documentError(() =>
      memberBytes(fixtureInput('bundle.zip', { member: 'notes/readme.md' })),
    );
    expect(e.kind).toBe('missing');
    expect(e.message).toBe(
      '"bundle.zip" has no member "notes/readme.md". Did you mean "notes/readme.txt"? List the members with read("bundle.zip").',
    );
    const folder = await documentError(() =>
      memberBytes(fixtureInput('bundle.zip', { member: 'notes/' })),
    );
    expect(folder.message).toContain('is a folder inside the archive');
  });
});

describe('archives: attacks', () => {
  it('a zip bomb lists at once and is refused while it inflates, at the limit', async () => {
    const input = fixtureInput('bomb.zip', { member: 'zeros.bin' }, { maxInflatedBytes: 5e6 });
    expect(input.bytes.length).toBeLessThan(50_000);
    const listed = await extract(input);
    expect(listed.notes.join('\n')).toContain('likely a compression bomb');
    const e = await documentError(() => memberBytes(input));
    expect(e.kind).toBe('too_large');
    expect(e.message).toMatch(/^"bomb.zip": member "zeros.bin" inflates past the limit of 5.0 MB/);
  });

  it('a 42.zip-style nest (2.5 GB inside 4 KB) lists without inflating and stops at the budget', async () => {
    const input = fixtureInput('nested-bomb.zip', {}, { maxInflatedBytes: 20e6 });
    const started = performance.now();
    const doc = await extract(input);
    expect(performance.now() - started).toBeLessThan(500);
    expect(doc.unitCount).toBe(8);
    const deep = { ...input, options: { member: 'layer1.zip::bomb1.zip::zeros.bin' } };
    const e = await documentError(() => memberBytes(deep));
    expect(e.kind).toBe('too_large');
    expect(e.message).toContain('"nested-bomb.zip": member "zeros.bin" inflates past the limit');
  });

  it('a member whose header understates its size is refused as soon as it inflates past it', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, 'bomb.zip')));
    const view = new DataView(bytes.buffer);
    const central = bytes.findLastIndex(
      (_, i) => i + 4 <= bytes.length && view.getUint32(i, true) === 0x02014b50,
    );
    view.setUint32(central + 24, 1000, true); // "1000 bytes unpacked"
    const lying = bytesInput('lying.zip', bytes, { member: 'zeros.bin' });
    expect(allText(await extract(lying))).toContain('| zeros.bin | 1 KB |');
    const e = await documentError(() => memberBytes(lying));
    expect(e.kind).toBe('malformed');
    expect(e.message).toContain('inflates to more than the 1 KB its header states');
  });

  it('a gzip bomb is stopped at the inflation limit, listing or reading', async () => {
    const input = fixtureInput('bomb.gz', { member: 'bomb' }, { maxInflatedBytes: 5e6 });
    expect(input.bytes.length).toBeLessThan(50_000);
    for (const run of [() => extract(input), () => memberBytes(input)]) {
      const e = await documentError(run);
      expect(e.kind).toBe('too_large');
      expect(e.message).toMatch(/^"bomb.gz": its gzip content inflates past the limit of 5.0 MB/);
    }
  });

  it('a password-protected member is listed as encrypted and refused by name', async () => {
    const doc = await extract(fixtureInput('locked.zip'));
    expect(allText(doc)).toContain('| secret.txt | 23 B (encrypted) |');
    expect(doc.notes.join('\n')).toContain('1 member is password-protected');
    const e = await documentError(() =>
      memberBytes(fixtureInput('locked.zip', { member: 'secret.txt' })),
    );
    expect(e.kind).toBe('encrypted');
    expect(e.message).toContain('"locked.zip": member "secret.txt" is password-protected');
  });

  it('a member named ../ is only a name: listed with a warning, read by name, written nowhere', async () => {
    const doc = await extract(fixtureInput('traversal.zip'));
    expect(allText(doc)).toContain('| ../a/x.txt |');
    expect(doc.notes.join('\n')).toContain('1 member name climbs out of the archive');
    const bytes = await memberBytes(fixtureInput('traversal.zip', { member: '../a/x.txt' }));
    expect(text(bytes)).toBe('owned\n');
  });

  it('archives nested deeper than maxDepth are refused; within it they are followed', async () => {
    const three = 'level5.zip::level4.zip::level3.zip';
    const ok = await memberBytes(fixtureInput('deep.zip', { member: three }, { maxDepth: 3 }));
    expect(ok.subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const all = `${three}::level2.zip::level1.zip::level0.txt`;
    const e = await documentError(() =>
      memberBytes(fixtureInput('deep.zip', { member: all }, { maxDepth: 3 })),
    );
    expect(e.kind).toBe('too_large');
    expect(e.message).toContain(
      'is 6 archives deep; Cogito follows archives inside archives at most 3 deep',
    );
  });

  it('a truncated zip, tar and gzip give clear errors or notes, never a crash', async () => {
    const cut = (name: string, keep: number): Uint8Array =>
      new Uint8Array(readFileSync(path.join(FIXTURES, name))).subarray(0, keep);
    const zip = await documentError(() => extract(bytesInput('cut.zip', cut('bundle.zip', 300))));
    expect(zip.message).toBe(
      '"cut.zip" is not a readable ZIP archive: its end-of-archive record is missing (truncated?).',
    );
    const tar = await extract(bytesInput('cut.tar', cut('bundle.tar', 2048)));
    expect(tar.notes.join('\n')).toMatch(/"cut.tar" is truncated: it ends inside member/);
    const gz = await documentError(() =>
      extract(bytesInput('cut.tar.gz', cut('bundle.tar.gz', 200))),
    );
    expect(gz.kind).toBe('malformed');
    expect(gz.message).toMatch(/^"cut.tar.gz": its gzip content is corrupt/);
    const junk = await documentError(() =>
      extract(bytesInput('junk.zip', 'not an archive at all')),
    );
    expect(junk.message).toContain('"junk.zip" is not a ZIP, tar or gzip archive');
  });

  it('a zip whose directory points past its end is malformed, not a crash', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, 'bundle.zip')));
    const view = new DataView(bytes.buffer);
    view.setUint32(bytes.length - 22 + 16, 0x7fffffff, true); // directory offset
    const e = await documentError(() => extract(bytesInput('bad.zip', bytes)));
    expect(e.message).toContain('its directory ends after 0 of the 5 members it announces');
  });
});
