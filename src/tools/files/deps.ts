/**
 * The effects the file tools use, injectable so a test can swap the file system or the
 * clock. Production code passes nothing and gets Node's own.
 */
import fsp from 'node:fs/promises';
import { DocumentReader } from '../../documents/reader.js';
import type { Workspace } from '../workspace.js';
import { readInside, writeInside } from './pinned.js';

/** The part of `node:fs/promises` the file tools call. */
export type FileSystem = Pick<
  typeof fsp,
  | 'readFile'
  | 'writeFile'
  | 'stat'
  | 'lstat'
  | 'readdir'
  | 'readlink'
  | 'mkdir'
  | 'rename'
  | 'cp'
  | 'rm'
>;

/**
 * Writes a whole file so a crash never leaves it half-written (temp file + rename). The
 * real one makes parent folders and writes through a verified folder handle of `workspace`
 * (see pinned.ts), so a folder swapped for a symlink cannot redirect it.
 */
type AtomicWrite = (abs: string, data: string | Uint8Array, workspace: Workspace) => Promise<void>;

/** Reads a whole file, opened without following a final symlink and checked through the handle. */
type ReadInside = (
  abs: string,
  workspace: Workspace,
  opts: { signal?: AbortSignal; maxBytes?: number },
) => Promise<Buffer>;

export interface FileToolDeps {
  fs?: FileSystem;
  writeAtomic?: AtomicWrite;
  /** How whole files are read; the default is the race-free {@link readInside}. */
  readWhole?: ReadInside;
  /** The clock used to name trash entries. */
  now?: () => Date;
  /**
   * Reads documents (PDF, Office, e-mail…) in the extraction process, through the cache.
   * The app passes one whose cache is in the home; the default caches nothing.
   */
  documents?: DocumentReader;
}

/** Deps with every effect filled in. */
export type ResolvedDeps = Required<FileToolDeps>;

/** Fills in Node's real effects for whatever the caller did not inject. */
export function resolveDeps(deps: FileToolDeps = {}): ResolvedDeps {
  const injected = deps.fs;
  return {
    fs: deps.fs ?? fsp,
    writeAtomic: deps.writeAtomic ?? ((abs, data, ws) => writeInside(ws, abs, data)),
    // An injected file system is a test double: read through it, so its behaviour shows.
    readWhole:
      deps.readWhole ??
      (injected === undefined
        ? (abs, ws, opts) => readInside(ws, abs, opts)
        : (abs, _ws, opts) => injected.readFile(abs, opts.signal ? { signal: opts.signal } : {})),
    now: deps.now ?? (() => new Date()),
    documents: deps.documents ?? new DocumentReader(),
  };
}
