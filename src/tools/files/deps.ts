/**
 * The effects the file tools use, injectable so a test can swap the file system or the
 * clock. Production code passes nothing and gets Node's own.
 */
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';

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

/** Writes a whole file so a crash never leaves it half-written (temp file + rename). */
export type AtomicWrite = (abs: string, data: string | Uint8Array) => Promise<void>;

export interface FileToolDeps {
  fs?: FileSystem;
  writeAtomic?: AtomicWrite;
  /** The clock used to name trash entries. */
  now?: () => Date;
}

/** Deps with every effect filled in. */
export type ResolvedDeps = Required<FileToolDeps>;

// write-file-atomic is CommonJS and ships no types; this is its documented promise form.
const require = createRequire(import.meta.url);
const writeFileAtomic = require('write-file-atomic') as (
  file: string,
  data: string | Uint8Array,
) => Promise<void>;

/** Fills in Node's real effects for whatever the caller did not inject. */
export function resolveDeps(deps: FileToolDeps = {}): ResolvedDeps {
  return {
    fs: deps.fs ?? fsp,
    writeAtomic: deps.writeAtomic ?? ((abs, data) => writeFileAtomic(abs, data)),
    now: deps.now ?? (() => new Date()),
  };
}
