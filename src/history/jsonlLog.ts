import { Buffer } from 'node:buffer';
import { describeWriteError, OK } from './appendResult.js';
import type { AppendResult } from './appendResult.js';
import { realFs } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';

/**
 * How far an append goes before it reports success.
 * - `write`: the bytes reached the kernel. A killed or crashed process loses nothing.
 * - `fsync`: the bytes reached the disk. Also survives power loss, at a cost of a disk flush
 *   (milliseconds) per message.
 */
export type Durability = 'write' | 'fsync';

interface JsonlLogOptions {
  durability?: Durability;
  fs?: HistoryFs;
}

/**
 * An append-only JSON-lines file. Each line goes out in one `write` on a descriptor opened in
 * append mode and kept open, so appending costs the size of the line, never a rewrite of the
 * file. Errors are returned, not thrown.
 */
export class JsonlLog {
  private readonly fs: HistoryFs;
  private readonly durability: Durability;
  private fd: number | undefined;
  /** The file may end in a partial line: the next write starts with a newline to isolate it. */
  private dirtyTail = false;

  constructor(
    /** The file appended to; created (mode 0600) on the first append. */
    readonly path: string,
    opts: JsonlLogOptions = {},
  ) {
    this.fs = opts.fs ?? realFs;
    this.durability = opts.durability ?? 'write';
  }

  /**
   * Appends `lines` (JSON texts without newlines) as one write. When it returns ok, the bytes
   * are in the kernel (or on disk with `fsync`). On failure nothing is half-written: a partial
   * write is cut back off, or failing that fenced off by a newline before the next line.
   */
  append(lines: readonly string[]): AppendResult {
    if (lines.length === 0) return OK;
    let written = 0;
    try {
      const fd = this.open();
      const text = (this.dirtyTail ? '\n' : '') + lines.join('\n') + '\n';
      const buf = Buffer.from(text, 'utf8');
      // A regular file normally takes the whole buffer in one call; loop for the rare short write.
      while (written < buf.length) {
        written += this.fs.writeSync(fd, buf, written, buf.length - written);
      }
      this.dirtyTail = false;
      if (this.durability === 'fsync') this.fs.fsyncSync(fd);
      return OK;
    } catch (err) {
      // Also after a failed fsync: the caller retries the whole batch, so take it back out.
      if (written > 0) this.rollBack(written);
      return { ok: false, error: describeWriteError(err, this.path) };
    }
  }

  /** Closes the descriptor; a later append reopens the file. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      this.fs.closeSync(fd);
    } catch {
      // Closing cannot lose appended data (it already reached the kernel).
    }
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    // 'a+' rather than 'a' so the last byte can be checked below.
    const fd = this.fs.openSync(this.path, 'a+', 0o600);
    try {
      const size = this.fs.fstatSync(fd).size;
      if (size > 0) {
        // A file not ending in a newline was cut mid-line; never glue a new record onto it.
        const last = Buffer.alloc(1);
        this.fs.readSync(fd, last, 0, 1, size - 1);
        this.dirtyTail = last[0] !== 0x0a;
      }
    } catch (err) {
      this.fs.closeSync(fd);
      throw err;
    }
    this.fd = fd;
    return fd;
  }

  /**
   * A write failed after `written` bytes landed (a full disk mid-buffer, or a failed fsync).
   * Cut them off so the file ends on a whole line and a retry does not duplicate; if that fails
   * too, the next append starts with a newline so a fragment stays a separate line, which the
   * loader skips and reports (and a whole duplicate is dropped by id on replay).
   */
  private rollBack(written: number): void {
    this.dirtyTail = true;
    if (this.fd === undefined) return;
    try {
      const size = this.fs.fstatSync(this.fd).size;
      this.fs.ftruncateSync(this.fd, size - written);
      this.dirtyTail = false;
      // The earlier part of the file may itself have ended without a newline.
      if (size - written > 0) {
        const last = Buffer.alloc(1);
        this.fs.readSync(this.fd, last, 0, 1, size - written - 1);
        this.dirtyTail = last[0] !== 0x0a;
      }
    } catch {
      this.dirtyTail = true;
    }
  }
}
