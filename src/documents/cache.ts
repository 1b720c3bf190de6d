/**
 * Extracted text kept in the app home, so the second `grep` over a folder of documents (or a
 * second `read` of one) extracts nothing. Two keys lead to an entry:
 *
 * - the file's (path, size, mtime): found without reading the file at all;
 * - its content hash: a copied or renamed file, or one touched without a change, is found
 *   after one read and one hash, still without extracting.
 *
 * `paths/<key>` holds the content key; `docs/<key>.json` the extracted document. Both are
 * written to a temporary name and renamed, so several Cogito processes can share the cache
 * and a crash never leaves half an entry. The cache is bounded: past `maxBytes`, the entries
 * used least recently go first. Each key also holds the options that change the result (OCR
 * on or off, GPS…) and the cache's version, bumped when extractors change what they return.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { ExtractedDocument, ExtractOptions } from './types.js';

/** Bump when what extractors return changes, so old entries are not served. */
const CACHE_VERSION = 1;
export const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;
/** Bytes hashed between two turns of the event loop. */
const SLICE_BYTES = 256 * 1024;

/** Characters of JSON written between two turns of the event loop. */
const SLICE_CHARS = 64 * 1024;

/**
 * `JSON.stringify(doc)` as a series of pieces, no piece longer than about
 * {@link SLICE_CHARS}: each unit's text is escaped a slice at a time. A slice that ends
 * inside a surrogate pair escapes each half (`\ud83d`); `JSON.parse` joins them back.
 */
export function* documentJson(doc: ExtractedDocument): Generator<string> {
  const { units, ...rest } = doc;
  const head = JSON.stringify(rest);
  yield `${head.slice(0, -1)}${head === '{}' ? '' : ','}"units":[`;
  for (const [i, unit] of units.entries()) {
    const { markdown, ...fields } = unit;
    const open = JSON.stringify(fields);
    yield `${i > 0 ? ',' : ''}${open.slice(0, -1)}${open === '{}' ? '' : ','}"markdown":"`;
    const text = String(markdown);
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      yield JSON.stringify(text.slice(at, at + SLICE_CHARS)).slice(1, -1);
    }
    yield '"}';
  }
  yield ']}';
}

/** A file as the cache knows it: where it is and what `stat` said. */
export interface FileStamp {
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
}

const sha256 = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex');

/** The options that change an extraction's result, as a stable string. */
function optionsKey(options: ExtractOptions): string {
  return JSON.stringify([
    CACHE_VERSION,
    options.ocr ?? true,
    options.gps ?? false,
    options.member ?? '',
  ]);
}

export class DocumentCache {
  private readonly docs: string;
  private readonly paths: string;
  /** Bytes of `docs/` as last counted, and entries' last use; read once, lazily. */
  private usage: Promise<Map<string, { size: number; used: number }>> | undefined;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number = DEFAULT_CACHE_BYTES,
  ) {
    this.docs = path.join(dir, 'docs');
    this.paths = path.join(dir, 'paths');
  }

  private pathKey(file: FileStamp, options: ExtractOptions): string {
    return sha256(`${file.abs}\0${file.size}\0${Math.trunc(file.mtimeMs)}\0${optionsKey(options)}`);
  }

  /**
   * The content key of `bytes` under these options. Hashed a slice at a time with a turn of
   * the event loop between slices: a 100 MB PDF must not freeze the screen's echo.
   */
  async contentKey(bytes: Uint8Array, options: ExtractOptions): Promise<string> {
    const hash = createHash('sha256');
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      hash.update(bytes.subarray(at, at + SLICE_BYTES));
      if (at + SLICE_BYTES < bytes.length) await new Promise((r) => setImmediate(r));
    }
    return sha256(`${hash.digest('hex')}\0${optionsKey(options)}`);
  }

  private docFile(key: string): string {
    return path.join(this.docs, key.slice(0, 2), `${key}.json`);
  }

  private pathFile(key: string): string {
    return path.join(this.paths, key.slice(0, 2), key);
  }

  /** The document cached for this file as it is now (same path, size and mtime), if any. */
  async byStamp(file: FileStamp, options: ExtractOptions): Promise<ExtractedDocument | undefined> {
    const key = await readFile(this.pathFile(this.pathKey(file, options)), 'utf8').catch(() => '');
    return /^[0-9a-f]{64}$/.test(key) ? this.byContent(key) : undefined;
  }

  /** The document cached under a content key, if any. */
  async byContent(key: string): Promise<ExtractedDocument | undefined> {
    const file = this.docFile(key);
    try {
      const doc = JSON.parse(await readFile(file, 'utf8')) as ExtractedDocument;
      // Its use time, for eviction: the entries used least recently go first.
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      const entry = (this.usage === undefined ? undefined : await this.usage)?.get(key);
      if (entry !== undefined) entry.used = now.getTime();
      return doc;
    } catch {
      return undefined;
    }
  }

  /** Records that this file (as stamped) has this content key: the next lookup by stamp finds it. */
  async remember(file: FileStamp, options: ExtractOptions, key: string): Promise<void> {
    await this.writeAtomic(this.pathFile(this.pathKey(file, options)), key);
  }

  /**
   * Stores a document under its content key, then evicts past the bound. Written a slice at
   * a time (see {@link documentJson}), so a document of millions of characters never holds
   * up the screen for the length of one `JSON.stringify`.
   */
  async store(key: string, doc: ExtractedDocument): Promise<void> {
    const file = this.docFile(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomUUID()}.tmp`;
    let size = 0;
    const handle = await open(temp, 'w', 0o600);
    try {
      let batch = '';
      for (const piece of documentJson(doc)) {
        batch += piece;
        if (batch.length < SLICE_CHARS) continue;
        size += (await handle.write(batch)).bytesWritten;
        batch = '';
      }
      size += (await handle.write(batch)).bytesWritten;
      await handle.close();
      await rename(temp, file);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    const usage = await (this.usage ??= this.scan());
    usage.set(key, { size, used: Date.now() });
    await this.evict(usage);
  }

  private async writeAtomic(file: string, text: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomUUID()}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, file);
  }

  /** Sizes and use times of the stored documents, read once per process. */
  private async scan(): Promise<Map<string, { size: number; used: number }>> {
    const usage = new Map<string, { size: number; used: number }>();
    const shards = await readdir(this.docs).catch(() => [] as string[]);
    for (const shard of shards) {
      const names = await readdir(path.join(this.docs, shard)).catch(() => [] as string[]);
      for (const name of names) {
        if (!name.endsWith('.json')) continue;
        const st = await stat(path.join(this.docs, shard, name)).catch(() => undefined);
        if (st !== undefined) usage.set(name.slice(0, -5), { size: st.size, used: st.mtimeMs });
      }
    }
    return usage;
  }

  /** Past the bound, drops the least recently used documents until under 90 % of it. */
  private async evict(usage: Map<string, { size: number; used: number }>): Promise<void> {
    let total = 0;
    for (const { size } of usage.values()) total += size;
    if (total <= this.maxBytes) return;
    const oldest = [...usage.entries()].sort((a, b) => a[1].used - b[1].used);
    for (const [key, { size }] of oldest) {
      if (total <= this.maxBytes * 0.9) break;
      // A path entry left pointing at a dropped document is a miss, then rewritten.
      await rm(this.docFile(key), { force: true });
      usage.delete(key);
      total -= size;
    }
  }
}
