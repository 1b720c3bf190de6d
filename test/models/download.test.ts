/**
 * Model downloads against a real loopback server: progress, resuming after the server drops
 * the connection, verification (announced size, GGUF magic, published SHA-256) and a
 * cancelled download that leaves only its part file.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadModel } from '../../src/models/download.js';
import type { DownloadProgress } from '../../src/models/progress.js';
import { startModelServer, type ModelServer } from '../helpers/modelServer.js';

/** A fake "model": the GGUF magic then filler, big enough to arrive in several chunks. */
const BODY = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(3_000_000, 7)]);

let dir: string;
let server: ModelServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-dl-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function run(file: string, extra: Partial<Parameters<typeof downloadModel>[0]> = {}) {
  const seen: DownloadProgress[] = [];
  const result = downloadModel({
    url: `${server!.url}/${file}`,
    dir,
    file,
    retryDelayMs: 1,
    progressEveryMs: 0,
    onProgress: (p) => seen.push(p),
    ...extra,
  });
  return { result, seen };
}

describe('downloadModel', () => {
  it('downloads with progress and verifies the published SHA-256', async () => {
    server = await startModelServer({ 'm.gguf': { body: BODY, sha256: true } });
    const { result, seen } = run('m.gguf');
    const got = await result;
    expect(got).toMatchObject({ ok: true, bytes: BODY.length, checksum: 'verified' });
    expect((await readFile(path.join(dir, 'm.gguf'))).equals(BODY)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ received: BODY.length, total: BODY.length });
    expect(last.bytesPerSecond).toBeGreaterThan(0);
    expect(last.etaSeconds).toBe(0);
  });

  it('resumes with a Range request after the server drops the connection half-way', async () => {
    server = await startModelServer({
      'm.gguf': { body: BODY, sha256: true, dropAfterBytes: 1_000_000 },
    });
    const got = await run('m.gguf').result;
    expect(got.ok).toBe(true);
    expect((await readFile(path.join(dir, 'm.gguf'))).equals(BODY)).toBe(true);
    const ranged = server.requests.filter((r) => r.range !== undefined);
    expect(ranged.length).toBeGreaterThan(0);
    const from = Number(/bytes=(\d+)-/.exec(ranged[0]!.range!)![1]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(BODY.length);
  });

  it('resumes from a part file left by an earlier run', async () => {
    server = await startModelServer({ 'm.gguf': { body: BODY, sha256: true } });
    await writeFile(path.join(dir, 'm.gguf.part'), BODY.subarray(0, 2_000_000));
    const { result, seen } = run('m.gguf');
    expect((await result).ok).toBe(true);
    expect(server.requests.at(-1)!.range).toBe('bytes=2000000-');
    expect(seen[0]!.resumedFrom).toBe(2_000_000);
    expect((await readFile(path.join(dir, 'm.gguf'))).equals(BODY)).toBe(true);
  });

  it('rejects and deletes a file whose SHA-256 does not match the published one', async () => {
    server = await startModelServer({ 'm.gguf': { body: BODY, sha256: 'ab'.repeat(32) } });
    const got = await run('m.gguf').result;
    expect(got).toMatchObject({ ok: false, kind: 'verify' });
    expect(!got.ok && got.message).toContain('SHA-256');
    expect(await readdir(dir)).toEqual([]);
  });

  it('rejects a file that is not a GGUF model', async () => {
    server = await startModelServer({ 'm.gguf': { body: Buffer.from('<html>login</html>') } });
    const got = await run('m.gguf').result;
    expect(got).toMatchObject({ ok: false, kind: 'verify' });
    expect(!got.ok && got.message).toContain('not a GGUF model');
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports a missing file with the status and the fix', async () => {
    server = await startModelServer({});
    const got = await run('nope.gguf').result;
    expect(got).toMatchObject({ ok: false, kind: 'http' });
    expect(!got.ok && got.message).toContain('HTTP 404');
    expect(!got.ok && got.message).toContain('COGITO_MODELS_URL');
  });

  it('stops when cancelled and keeps the part for the next run', async () => {
    server = await startModelServer({ 'm.gguf': { body: BODY, dropAfterBytes: 500_000 } });
    const controller = new AbortController();
    const { result } = run('m.gguf', {
      signal: controller.signal,
      retryDelayMs: 60_000,
      onProgress: (p) => {
        if (p.received > 0) controller.abort();
      },
    });
    const got = await result;
    expect(got).toMatchObject({ ok: false, kind: 'aborted' });
    expect(await readdir(dir)).toEqual(['m.gguf.part']);
  });
});
