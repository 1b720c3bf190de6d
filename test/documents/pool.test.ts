/**
 * Hostile documents are contained: extractors that loop forever, allocate without bound,
 * flood the output, crash the process or throw run in the extraction process, and each ends
 * as a clear DocumentError naming the file while this process carries on. Esc (the turn's
 * signal) kills an extraction at once.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { extractDocument, extractionPool } from '../../src/documents/pool.js';
import { DocumentError } from '../../src/documents/types.js';

const hostile = (name: string): string =>
  pathToFileURL(path.join(import.meta.dirname, 'hostile', `${name}.mjs`)).href;
const bytes = new TextEncoder().encode('%PDF-1.7 a page of text');

/** Tight limits, so the attacks end quickly; a pool of its own. */
const pool = extractionPool({ timeoutMs: 3000, maxHeapMb: 64 });
afterAll(() => pool.stop());

async function failure(p: Promise<unknown>): Promise<DocumentError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentError);
  return error as DocumentError;
}

const run = (module: string, extra: { signal?: AbortSignal; maxChars?: number } = {}) =>
  extractDocument(
    {
      kind: 'pdf',
      bytes,
      name: 'inbox/evil.pdf',
      module: hostile(module),
      ...(extra.signal ? { signal: extra.signal } : {}),
      ...(extra.maxChars ? { limits: { maxChars: extra.maxChars } } : {}),
    },
    pool,
  );

describe('the extraction process contains hostile documents', () => {
  it('reads a good document, then stops one that loops forever at the time limit', async () => {
    const good = await run('throws');
    expect(good.units[0]?.markdown).toContain('a page of text');
    const started = Date.now();
    const error = await failure(run('loop'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('inbox/evil.pdf');
    expect(error.message).toMatch(/longer than 3 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // This process is alive and the next document gets a fresh extraction process.
    expect((await run('throws')).units).toHaveLength(1);
  }, 30_000);

  it('stops one that allocates without bound at the memory limit', async () => {
    const error = await failure(run('allocate'));
    expect(error.kind).toBe('too_large');
    expect(error.message).toMatch(/inbox\/evil\.pdf needs more memory .*64 MB/);
    expect((await run('throws')).units).toHaveLength(1);
  }, 30_000);

  it('caps a flood of output at the per-document limit and says so', async () => {
    const doc = await run('flood', { maxChars: 50_000 });
    const chars = doc.units.reduce((n, u) => n + u.markdown.length, 0);
    expect(chars).toBeLessThanOrEqual(50_002);
    expect(doc.units).toHaveLength(1);
    expect(doc.meta[0]?.[1].length).toBeLessThan(1100);
    expect(doc.notes.at(-1)).toMatch(
      /cut at 50,000 characters .* in page 1; later pages were not read/,
    );
  }, 30_000);

  it('turns a crash of the reader into an error naming the file', async () => {
    const error = await failure(run('crash'));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(
      /Reading inbox\/evil\.pdf crashed the document reader \(signal SIGABRT\)/,
    );
    expect((await run('throws')).units).toHaveLength(1);
  }, 30_000);

  it("turns a library's exception on a malformed file into an error naming the file", async () => {
    const error = await extractDocument(
      { kind: 'pdf', bytes: new Uint8Array(3), name: 'bad.pdf', module: hostile('throws') },
      pool,
    ).catch((e: unknown) => e as DocumentError);
    expect(error).toMatchObject({ kind: 'malformed' });
    expect((error as Error).message).toMatch(/^bad\.pdf could not be read: Cannot read properties/);
  }, 30_000);

  it('is killed at once when the turn is interrupted (Esc)', async () => {
    await run('throws'); // warm: the abort below meets a running extraction, not a start-up
    const controller = new AbortController();
    const pending = run('loop', { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(100);
    expect((await run('throws')).units).toHaveLength(1);
  }, 30_000);

  it('says a kind with no reader in this build is not available', async () => {
    const error = await failure(
      extractDocument({ kind: 'text', bytes, name: 'notes.weird' }, pool),
    );
    expect(error.kind).toBe('unsupported');
    expect(error.message).toContain('notes.weird');
  }, 30_000);
});
