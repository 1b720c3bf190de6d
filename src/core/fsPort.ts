import * as nodeFs from 'node:fs';
import path from 'node:path';

/**
 * The synchronous file-system calls the state files use (history, reminders, the ledger …;
 * docs/STATE.md). Passed in (default: `node:fs`) so tests can inject faults such as a
 * `writeSync` that throws `ENOSPC`, or spy on calls to prove that an append never reads or
 * rewrites the whole file.
 */
export type HistoryFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'closeSync'
  | 'writeSync'
  | 'readSync'
  | 'fsyncSync'
  | 'fstatSync'
  | 'ftruncateSync'
  | 'readFileSync'
  | 'writeFileSync'
  | 'renameSync'
  | 'linkSync'
  | 'copyFileSync'
  | 'unlinkSync'
  | 'mkdirSync'
  | 'readdirSync'
  | 'statSync'
>;

/** The real file system. */
export const realFs: HistoryFs = nodeFs;

/** The `code` of a Node system error (`ENOENT`, `ENOSPC` …), or `undefined`. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A readable message for anything thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

let tmpCounter = 0;

/**
 * Replaces `file` with `data` so that a crash at any moment leaves either the old or the new
 * content, never a mix: write a temporary sibling, flush it to disk, rename it over the target
 * (rename is atomic within a directory), then flush the folder so the rename itself survives a
 * power cut. Throws on failure after removing the temporary file. Every state file Cogito
 * rewrites whole goes through here (docs/STATE.md).
 */
export function atomicWriteFileSync(
  fs: HistoryFs,
  file: string,
  data: string | Buffer,
  mode = 0o600,
): void {
  tmpCounter += 1;
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.tmp-${process.pid}-${tmpCounter}`,
  );
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
    syncFolder(fs, path.dirname(file));
  } catch (err) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // The write already failed; the original error is the one worth reporting.
      }
    }
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Nothing to clean up, or cleanup impossible: the target is untouched either way.
    }
    throw err;
  }
}

/**
 * Flushes a folder's entries (a rename or a new file in it) to disk. Best effort: some file
 * systems refuse to open or fsync a folder, and the data itself is already flushed.
 */
export function syncFolder(fs: HistoryFs, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not supported here (or on this platform): the rename stands, only its flush is lost.
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // Nothing to do.
      }
    }
  }
}
