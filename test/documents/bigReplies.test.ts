/**
 * A big document crosses from the extraction process in pieces and is written to the cache a
 * slice at a time, so neither freezes the screen; what arrives and what is stored must be
 * exactly the document, to the last character: surrogate pairs cut between two pieces, text
 * that needs escaping, units with no text. `read` shows only the start of a unit of millions
 * of characters without measuring all of it, and `grep` searches it a slice at a time with
 * the same results (line numbers, pages) as before.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentCache, documentJson } from '../../src/documents/cache.js';
import { extractDocument, extractionPool } from '../../src/documents/pool.js';
import { DocumentAssembler, PIECE_CHARS, splitDocument } from '../../src/documents/replyPieces.js';
import type { ExtractedDocument } from '../../src/documents/types.js';
import { renderDocument } from '../../src/tools/files/documentView.js';
import { eachLine, splitLines } from '../../src/tools/files/read.js';
import { makeFixture, text as resultText } from '../tools/fixture.js';
import { DocumentReader } from '../../src/documents/reader.js';

const fake = (name: string): string =>
  pathToFileURL(path.join(import.meta.dirname, 'fakes', `${name}.mjs`)).href;

/**
 * Text of `length` UTF-16 units that needs escaping in JSON, with an emoji (a surrogate pair)
 * at `every - 1`: a slice of `every` units ends between its two halves.
 */
function awkwardText(length: number, every: number): string {
  const filler = 'Zürich "quoted" \\ back\tslash\n'
    .repeat(Math.ceil(every / 20))
    .slice(0, every - 1);
  return `${filler}😀`.repeat(Math.ceil(length / (every + 1))).slice(0, length);
}

const doc = (...texts: string[]): ExtractedDocument => ({
  kind: 'pdf',
  label: 'PDF',
  meta: [['Title', 'A "big" one']],
  unitName: 'page',
  unitCount: texts.length,
  units: texts.map((markdown, i) => ({ number: i + 1, title: `Page ${i + 1}`, markdown })),
  notes: ['a note'],
});

describe('a document sent back in pieces', () => {
  it('is put back together exactly, with pieces no longer than the slice', () => {
    const original = doc(awkwardText(1000, 7), '', 'short', awkwardText(333, 10));
    const [head, ...pieces] = splitDocument(42, original, 7);
    expect(head.head.units.every((u) => u.markdown === '')).toBe(true);
    expect(head.pieces).toBe(pieces.length);
    expect(pieces.every((p) => p.id === 42 && p.text.length <= 7)).toBe(true);
    // Some piece ends on the first half of a surrogate pair: the cut really happens.
    expect(pieces.some((p) => /[\ud800-\udbff]$/.test(p.text))).toBe(true);
    const assembler = new DocumentAssembler(head);
    let whole: ExtractedDocument | undefined;
    for (const [i, piece] of pieces.entries()) {
      whole = assembler.add(piece);
      if (i < pieces.length - 1) expect(whole).toBeUndefined();
    }
    expect(whole).toEqual(original);
  });

  it('is whole at once when it has no text', () => {
    const [head, ...pieces] = splitDocument(1, doc('', ''));
    expect(pieces).toHaveLength(0);
    expect(new DocumentAssembler(head).done()).toEqual(doc('', ''));
  });

  it('crosses from the real extraction process intact, several pieces long', async () => {
    const pool = extractionPool({ timeoutMs: 60_000, maxHeapMb: 256 });
    try {
      const page = awkwardText(PIECE_CHARS * 3 + 17, PIECE_CHARS);
      const bytes = new TextEncoder().encode(`%PDF-1.7\n${page}\fsecond page`);
      const got = await extractDocument(
        { kind: 'pdf', bytes, name: 'big.pdf', module: fake('pages') },
        pool,
      );
      expect(got.units.map((u) => u.markdown)).toEqual([page, 'second page']);
    } finally {
      pool.stop();
    }
  }, 60_000);
});

describe('a document stored in the cache a slice at a time', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-bigcache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  afterAll(() => extractionPool().stop());

  it('is the same JSON as JSON.stringify, piece by piece bounded', () => {
    const original = doc(awkwardText(200_000, 65_536), '', 'a\u0000b\u2028c');
    const pieces = [...documentJson(original)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024 * 6);
    expect(JSON.parse(pieces.join(''))).toEqual(original);
    // A slice boundary falls inside a surrogate pair (the emoji at 65,535–65,536).
    expect(original.units[0]!.markdown.charCodeAt(65_535)).toBeGreaterThanOrEqual(0xd800);
    expect(JSON.parse(JSON.stringify(original))).toEqual(JSON.parse(pieces.join('')));
  });

  it('reads back exactly by its content key, and a stamp finds it', async () => {
    const cache = new DocumentCache(dir);
    const original = doc(awkwardText(300_000, 65_536), 'page two');
    const bytes = new TextEncoder().encode('the file');
    const key = await cache.contentKey(bytes, {});
    // The key is the same as before the cache wrote in slices: sha256 of the bytes, then with the options.
    expect(key).toBe(await new DocumentCache(path.join(dir, 'other')).contentKey(bytes, {}));
    await cache.store(key, original);
    const stamp = { abs: path.join(dir, 'a.pdf'), size: 8, mtimeMs: 1 };
    await cache.remember(stamp, {}, key);
    expect(await cache.byContent(key)).toEqual(original);
    expect(await new DocumentCache(dir).byStamp(stamp, {})).toEqual(original);
    // Nothing half-written is left beside the entry.
    const shard = path.join(dir, 'docs', key.slice(0, 2));
    expect(await readdir(shard)).toEqual([`${key}.json`]);
    expect(JSON.parse(await readFile(path.join(shard, `${key}.json`), 'utf8'))).toEqual(original);
  });
});

describe('read on a unit of millions of characters', () => {
  it('shows its start and says it is cut, as before', () => {
    const big = 'word '.repeat(1_000_000);
    const { text } = renderDocument(
      'big.html',
      doc(big, 'next'),
      { start: 1, limit: undefined },
      256 * 1024,
    );
    expect(text.split('\n')[0]).toBe('big.html · PDF · page 1 of 2');
    expect(text).toContain('Note: page 1 is longer than 256.0 KB; only its start is shown.');
    expect(text).toContain(`## Page 1\n\n${'word '.repeat(10)}`);
    expect(text.length).toBeLessThan(70 * 1024);
    expect(text.endsWith('call read("big.html", 2) for more]')).toBe(true);
  });

  it('still fits units by their UTF-8 size', () => {
    // 40,000 three-byte characters: 120 KB each, so two fit in 256 KB and a third does not.
    const cjk = '字'.repeat(40_000);
    const { text } = renderDocument(
      'zh.pdf',
      doc(cjk, cjk, cjk),
      { start: 1, limit: undefined },
      256 * 1024,
    );
    expect(text).toContain('pages 1–2 of 3');
    expect(text).toContain('call read("zh.pdf", 3) for more');
  });
});

describe('grep through a document of millions of characters, a slice at a time', () => {
  it('finds the same lines as splitLines, one at a time', () => {
    const cases = [
      '',
      'a',
      'a\n',
      'a\n\n',
      '\n',
      '\r\n',
      'a\r\nb\r\n',
      'a\rb',
      'a\r\r\nb',
      '\n\nx',
    ];
    for (const c of cases) expect([...eachLine(c)], JSON.stringify(c)).toEqual(splitLines(c));
  });

  it('numbers lines right across many slices, and names the page in a big document', async () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `line ${i + 1}: nothing here`);
    lines[29_999] = 'line 30000: the needle';
    lines[59_999] = 'line 60000: another needle';
    const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'cogito-biggrep-'));
    const f = await makeFixture({
      documents: new DocumentReader({
        cache: new DocumentCache(cacheDir),
        modules: { pdf: fake('pages') },
      }),
    });
    try {
      await f.write('big.txt', `${lines.join('\n')}\n`);
      await f.write('big.pdf', `%PDF-1.7\n${lines.join('\n')}\fpage two needle`);
      const found = resultText(await f.call('grep', 'needle'));
      expect(found.split('\n').slice(1)).toEqual([
        'big.pdf (page 1): line 30000: the needle',
        'big.pdf (page 1): line 60000: another needle',
        'big.pdf (page 2): page two needle',
        'big.txt:30000: line 30000: the needle',
        'big.txt:60000: line 60000: another needle',
      ]);
    } finally {
      await f.cleanup();
      await rm(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);
});
