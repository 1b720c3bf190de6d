/**
 * The one door the tools use to read a document: the cache first (by path, size and mtime,
 * then by content hash), else the extraction process, whose result is cached. Archive
 * members are read the same way, their bytes taken from the archive in the extraction
 * process. `extractions` counts real extractions, so a test or the bench can show that a
 * second grep extracted nothing.
 */
import type { DocumentCache } from './cache.js';
import { type FileStamp } from './cache.js';
import { detectKind } from './detect.js';
import { EXTRACTORS } from './formats.js';
import {
  archiveMember,
  extractDocument,
  extractionPool,
  type ExtractionPool,
  type PoolLimits,
} from './pool.js';
import {
  DocumentError,
  type DocumentKind,
  type ExtractedDocument,
  type ExtractOptions,
} from './types.js';

export interface DocumentReaderDeps {
  /** Where extracted text is cached; none: nothing is cached (each read extracts). */
  cache?: DocumentCache;
  /** Limits of the extraction process. */
  limits?: PoolLimits;
  /** Tests: a module (file URL) to extract a kind with, instead of the built-in table. */
  modules?: Partial<Record<DocumentKind, string>>;
}

/** One document to read. */
export interface DocumentRequest {
  readonly file: FileStamp;
  /** Workspace-relative name (with `::member` for an archive member), for messages. */
  readonly name: string;
  /** Reads the file's bytes; called only when the cache has no entry for its stamp. */
  readonly load: () => Promise<Uint8Array>;
  /** The kind when the caller already detected it from the bytes. */
  readonly kind?: DocumentKind;
  readonly options?: ExtractOptions;
  readonly signal?: AbortSignal;
}

export class DocumentReader {
  private readonly pool: ExtractionPool;
  private readonly cache: DocumentCache | undefined;
  private readonly modules: Partial<Record<DocumentKind, string>>;

  constructor(deps: DocumentReaderDeps = {}) {
    this.pool = extractionPool(deps.limits);
    this.cache = deps.cache;
    this.modules = deps.modules ?? {};
  }

  /** How many documents were really extracted by this process (cache hits add none). */
  get extractions(): number {
    return this.pool.extractions;
  }

  /** Whether Cogito has a reader for this kind (in this build, or given by a test). */
  reads(kind: DocumentKind): boolean {
    return this.modules[kind] !== undefined || EXTRACTORS[kind] !== undefined;
  }

  /** The cached document of a file as it is now, without reading or extracting it. */
  async cached(
    file: FileStamp,
    options: ExtractOptions = {},
  ): Promise<ExtractedDocument | undefined> {
    return this.cache?.byStamp(file, options);
  }

  /** The whole document, from the cache or extracted (and then cached). */
  async read(req: DocumentRequest): Promise<ExtractedDocument> {
    const options = req.options ?? {};
    const hit = await this.cache?.byStamp(req.file, options);
    if (hit !== undefined) return hit;
    const bytes = await req.load();
    const key = await this.cache?.contentKey(bytes, options);
    if (this.cache !== undefined && key !== undefined) {
      const same = await this.cache.byContent(key);
      if (same !== undefined) {
        await this.cache.remember(req.file, options, key);
        return same;
      }
    }
    const kind = req.kind ?? detectKind(bytes, req.name).kind;
    if (kind === undefined || !this.reads(kind)) {
      throw new DocumentError(
        'unsupported',
        `${req.name} is not a kind of file Cogito reads${kind === undefined ? '' : ` (${kind})`}.`,
      );
    }
    const module = this.modules[kind];
    const doc = await extractDocument(
      {
        kind,
        bytes,
        name: req.name,
        options: { ...options, member: undefined },
        ...(req.signal ? { signal: req.signal } : {}),
        ...(module ? { module } : {}),
      },
      this.pool,
    );
    if (this.cache !== undefined && key !== undefined) {
      // A cache that cannot be written (a full disk) costs speed, never the read.
      await this.cache
        .store(key, doc)
        .then(() => this.cache?.remember(req.file, options, key))
        .catch(() => undefined);
    }
    return doc;
  }

  /** The bytes of `member` inside the archive `bytes` (of kind `kind`), read in the extraction process. */
  async member(
    archive: { bytes: Uint8Array; name: string; kind: DocumentKind },
    member: string,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const module = this.modules[archive.kind];
    return archiveMember(
      {
        kind: archive.kind,
        bytes: archive.bytes,
        name: archive.name,
        options: { member },
        ...(signal ? { signal } : {}),
        ...(module ? { module } : {}),
      },
      this.pool,
    );
  }
}
