import { describe, expect, it } from 'vitest';
import { extract as extractArchive, memberBytes } from '../../src/documents/archive.js';
import { extract as extractEpub } from '../../src/documents/epub.js';
import { extract as extractEml } from '../../src/documents/eml.js';
import type { ExtractInput, ExtractedDocument } from '../../src/documents/types.js';
import { DocumentError } from '../../src/documents/types.js';
import { bytesInput, fixtureInput } from './miscFixtures.js';

/** Deterministic damage: a few bytes of the file set to random values. */
function damaged(bytes: Uint8Array, seed: number): Uint8Array {
  let state = seed;
  const random = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
  const out = bytes.slice();
  for (let k = 0; k <= random(6); k++) out[random(out.length)] = random(256);
  return out;
}

const CASES: [string, (input: ExtractInput) => Promise<ExtractedDocument | Uint8Array>][] = [
  ['bundle.zip', extractArchive],
  ['bundle.tar', extractArchive],
  ['bundle.tar.gz', extractArchive],
  ['ledger.epub', extractEpub],
  ['harbour.eml', extractEml],
];

describe('damaged files', () => {
  it.each(CASES)(
    'random damage to %s gives a result or a DocumentError, never a crash or a hang',
    async (name, read) => {
      const original = fixtureInput(name).bytes;
      let errors = 0;
      for (let seed = 1; seed <= 80; seed++) {
        const input = bytesInput(name, damaged(original, seed), {}, { maxInflatedBytes: 5e6 });
        await read(input).catch((e: unknown) => {
          if (!(e instanceof DocumentError)) throw e;
          errors++;
        });
        if (name !== 'ledger.epub' && name !== 'harbour.eml') {
          const member = { ...input, options: { member: 'notes/readme.txt' } };
          await memberBytes(member).catch((e: unknown) => {
            if (!(e instanceof DocumentError)) throw e;
          });
        }
      }
      // Some damage still reads (the point is that none crashes); gzip's CRC turns every
      // damaged byte into an error, so every copy of a .gz may fail, by a DocumentError.
      if (!name.endsWith('.gz')) expect(errors).toBeLessThan(80);
    },
  );

  it('a tar header with a negative size is malformed, not an endless loop', async () => {
    const tar = fixtureInput('bundle.tar').bytes.slice();
    tar.set(new TextEncoder().encode('-0001750\0\0\0\0'), 124); // size -1000
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : tar[i]!;
    tar.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    const e = await extractArchive(bytesInput('neg.tar', tar)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DocumentError);
    expect((e as DocumentError).message).toBe(
      '"neg.tar" is damaged: a member\'s size field is not a size.',
    );
  });
});
