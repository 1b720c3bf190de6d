import type { Buffer } from 'node:buffer';
import path from 'node:path';
import { atomicWriteFileSync, errorCode, errorMessage } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { keepAside } from '../core/keepAside.js';
import { parseRecord, serializeRecord } from './records.js';
import type { HistoryRecord } from './records.js';

/** A line that could not be read: 1-based line number and why. */
interface BadLine {
  readonly line: number;
  readonly problem: string;
}

/** What a history file held, after any repair. */
interface LoadedLog {
  readonly records: HistoryRecord[];
  readonly badLines: BadLine[];
  /** Messages for the user: what was unreadable, where the original went. Empty when clean. */
  readonly warnings: string[];
  /** Where the unreadable original was kept, when it was moved aside. */
  readonly movedAside?: string;
}

/**
 * Reads a JSONL history file, keeping every readable line. A missing or empty file is an
 * empty history. When any line is unreadable (cut off by a crash, binary junk, invalid JSON,
 * invalid UTF-8) the original is kept as `<name>.corrupt-<timestamp>.jsonl` next to it (never
 * overwriting anything) and replaced atomically by a clean file of the recovered records.
 * A folder standing in its place is moved aside whole and the history starts empty.
 * Throws only when the file exists but cannot be read at all (permissions), or a folder in its
 * place cannot be moved.
 */
export function loadLog(fs: HistoryFs, file: string, now: number = Date.now()): LoadedLog {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { records: [], badLines: [], warnings: [] };
    if (code === 'EISDIR') {
      const moved = folderAside(fs, file, now);
      if (moved !== undefined) return moved;
    }
    throw new Error(
      `Cannot read the history file ${file}: ${errorMessage(err)}. Check that it is a readable file.`,
      { cause: err },
    );
  }
  const { records, badLines } = parseLines(buf);
  if (badLines.length === 0) return { records, badLines, warnings: [] };
  return { records, badLines, ...repair(fs, file, records, badLines, now) };
}

/** A folder where the history file belongs, moved aside whole: an empty history, and why. */
function folderAside(fs: HistoryFs, file: string, now: number): LoadedLog | undefined {
  let aside: string;
  try {
    aside = keepAside(fs, file, now);
  } catch {
    return undefined;
  }
  return {
    records: [],
    badLines: [],
    movedAside: aside,
    warnings: [
      `A folder was in the place of the history file ${file}; it was moved aside whole as ` +
        `${aside}, and the history starts empty.`,
    ],
  };
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Splits on newline bytes (never part of a multi-byte UTF-8 character) and parses each line. */
function parseLines(buf: Buffer): { records: HistoryRecord[]; badLines: BadLine[] } {
  const records: HistoryRecord[] = [];
  const badLines: BadLine[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    const terminated = end !== -1;
    if (!terminated) end = buf.length;
    lineNo += 1;
    const bytes = buf.subarray(start, end);
    start = end + 1;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      badLines.push({ line: lineNo, problem: 'not valid UTF-8 text (binary data)' });
      continue;
    }
    if (text.trim() === '') continue;
    const parsed = parseRecord(text);
    if ('problem' in parsed) {
      // An unterminated last line is what a crash mid-write leaves behind.
      const problem = terminated ? parsed.problem : 'cut off (the write was interrupted)';
      badLines.push({ line: lineNo, problem });
    } else {
      records.push(parsed);
    }
  }
  return { records, badLines };
}

function repair(
  fs: HistoryFs,
  file: string,
  records: readonly HistoryRecord[],
  badLines: readonly BadLine[],
  now: number,
): { warnings: string[]; movedAside?: string } {
  const shown = badLines
    .slice(0, 5)
    .map((b) => `line ${b.line}: ${b.problem}`)
    .join('; ');
  const more = badLines.length > 5 ? `; and ${badLines.length - 5} more` : '';
  const what =
    `${badLines.length} unreadable line(s) in ${file} (${shown}${more}); ` +
    `recovered ${records.filter((r) => r.t === 'msg').length} message(s).`;
  let aside: string;
  try {
    aside = keepAside(fs, file, now);
  } catch (err) {
    // Without a safe copy of the original, repairing it could lose data: leave it untouched.
    return {
      warnings: [
        `${what} The file could not be copied aside (${errorMessage(err)}), so it was left as it ` +
          `is; new messages are still appended. Check the permissions of ${path.dirname(file)}.`,
      ],
    };
  }
  try {
    const body = records.map((r) => serializeRecord(r) + '\n').join('');
    atomicWriteFileSync(fs, file, body);
  } catch (err) {
    return {
      movedAside: aside,
      warnings: [
        `${what} The original was kept as ${aside}, but the clean copy could not be written ` +
          `(${errorMessage(err)}); the damaged file stays in use.`,
      ],
    };
  }
  return { movedAside: aside, warnings: [`${what} The original was kept as ${aside}.`] };
}
