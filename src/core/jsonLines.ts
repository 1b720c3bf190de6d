/**
 * The JSON-lines state files other than the history (the ledger, the change journal): read
 * them line by line, and when any line is damaged keep the original aside and rewrite the
 * file with the lines that were kept, so the next append never glues onto a torn line and
 * the next start does not report the same damage again.
 */
import { Buffer } from 'node:buffer';
import { atomicWriteFileSync, errorMessage } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { NOT_UTF8, readStateText } from './stateFile.js';
import { keepAside } from './keepAside.js';

/** What a JSON-lines file held: its lines, or why it could not be read as text at all. */
export type JsonLinesRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; problem: string }
  /** `torn`: the last line has no newline (a write cut by a kill or a crash). */
  | { kind: 'lines'; lines: string[]; torn: boolean };

export function readJsonLines(fs: HistoryFs, file: string): JsonLinesRead {
  const read = readStateText(fs, file);
  if (read.kind === 'unreadable' && read.problem === NOT_UTF8) return readLineByLine(fs, file);
  if (read.kind !== 'text') return read;
  const lines = read.text.split('\n');
  const torn = lines.at(-1) !== '';
  if (!torn) lines.pop();
  return { kind: 'lines', lines, torn };
}

/**
 * Stands for a line whose bytes are not UTF-8: it never parses as JSON, so the caller skips
 * it as damage like any other bad line, and keeps every good line around it.
 */
const UNDECODABLE_LINE = '\u0000(not UTF-8 text)';

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Junk bytes in one line damage that line only: split on newline bytes, decode each. */
function readLineByLine(fs: HistoryFs, file: string): JsonLinesRead {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    return { kind: 'unreadable', problem: errorMessage(err) };
  }
  const lines: string[] = [];
  let start = 0;
  while (start <= buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    try {
      lines.push(strictDecoder.decode(buf.subarray(start, end)));
    } catch {
      lines.push(UNDECODABLE_LINE);
    }
    start = end + 1;
  }
  const torn = lines.at(-1) !== '';
  if (!torn) lines.pop();
  return { kind: 'lines', lines, torn };
}

/** The outcome of a repair: where the original went, or why it is left as it was. */
export type Repair = { ok: true; aside: string } | { ok: false; problem: string; aside?: string };

/**
 * Keeps the damaged `file` aside (`<name>.corrupt-<time><ext>`), then replaces it atomically
 * with `kept` (whole lines, without newlines). When no copy can be made the file is left
 * untouched: the caller appends after a newline instead, never over it.
 */
export function keepAsideAndRewrite(
  fs: HistoryFs,
  file: string,
  kept: readonly string[],
  now: number = Date.now(),
): Repair {
  let aside: string;
  try {
    aside = keepAside(fs, file, now);
  } catch (err) {
    return { ok: false, problem: `it could not be copied aside (${errorMessage(err)})` };
  }
  try {
    atomicWriteFileSync(fs, file, kept.map((l) => `${l}\n`).join(''));
  } catch (err) {
    return {
      ok: false,
      aside,
      problem: `the clean copy could not be written (${errorMessage(err)})`,
    };
  }
  return { ok: true, aside };
}

/**
 * Appends one line to a log and flushes it to disk before returning (open, write, fsync,
 * close: for logs written a few times a turn). A file that ends without a newline (a torn
 * line left as it was) gets one first, so the new line never glues onto the damage.
 * Throws on failure; a partly written line is cut back off where the file system allows.
 */
export function appendLineSync(fs: HistoryFs, file: string, line: string): void {
  const fd = fs.openSync(file, 'a+', 0o600);
  let size = 0;
  try {
    size = fs.fstatSync(fd).size;
    let fence = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) fence = '\n';
    }
    const buf = Buffer.from(`${fence}${line}\n`, 'utf8');
    let written = 0;
    while (written < buf.length) written += fs.writeSync(fd, buf, written, buf.length - written);
    fs.fsyncSync(fd);
  } catch (err) {
    try {
      fs.ftruncateSync(fd, size);
    } catch {
      // The fragment stays; the next append fences it off with a newline.
    }
    throw err;
  } finally {
    fs.closeSync(fd);
  }
}
