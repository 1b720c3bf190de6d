import path from 'node:path';
import type { CycleRecord } from '../api/ledger.js';
import { realFs, type HistoryFs } from '../core/fsPort.js';
import { appendLineSync, keepAsideAndRewrite, readJsonLines } from '../core/jsonLines.js';

/** The ledger's file name inside the session folder. */
export const LEDGER_FILE = 'ledger.jsonl';
/** Records kept in memory (the file keeps all of them). */
const KEEP = 2000;

/**
 * The cycle ledger of one session: an append-only JSONL file in the session folder (each
 * record flushed to disk) and the recent records in memory. A damaged file (a cut or junk
 * line, a folder in its place) is kept aside as `ledger.corrupt-<time>.jsonl` and rewritten
 * with its good records on load, the warning naming the copy; a failed write is reported once
 * and the record is still kept in memory.
 */
export class Ledger {
  private list: CycleRecord[] = [];
  private warned = false;

  constructor(
    readonly file: string | undefined,
    private readonly onError: (message: string) => void = () => {},
    private readonly fs: HistoryFs = realFs,
    now: number = Date.now(),
    /** A record that could not be written (each time); absent: `onError`, once. */
    private readonly onWriteFailed?: (problem: string) => void,
  ) {
    if (file) this.list = this.load(file, now).slice(-KEEP);
  }

  /** The ledger of the session in `dir`. */
  static inDir(
    dir: string,
    onError?: (message: string) => void,
    fs?: HistoryFs,
    onWriteFailed?: (problem: string) => void,
  ): Ledger {
    return new Ledger(path.join(dir, LEDGER_FILE), onError, fs, Date.now(), onWriteFailed);
  }

  /**
   * Reads the file; when any of it is damaged, keeps the original aside and rewrites the file
   * with the good records (so an append never glues onto a cut line), telling `onError`.
   */
  private load(file: string, now: number): CycleRecord[] {
    const read = readJsonLines(this.fs, file);
    if (read.kind === 'missing') return [];
    const { records, good, bad } =
      read.kind === 'lines' ? parseLines(read.lines) : { records: [], good: [], bad: 0 };
    if (read.kind === 'lines' && bad === 0) return records;
    const why = read.kind === 'lines' ? `${bad} damaged line(s)` : read.problem;
    const repair = keepAsideAndRewrite(this.fs, file, good, now);
    const kept = repair.aside ? `; the original was kept as ${repair.aside}` : '';
    this.onError(
      repair.ok
        ? `the cycle ledger ${file} was damaged (${why})${kept}; its ${records.length} good record(s) go on`
        : `the cycle ledger ${file} is damaged (${why}) and ${repair.problem}${kept}; it is left as it is and new records are added after it`,
    );
    return records;
  }

  records(): readonly CycleRecord[] {
    return this.list;
  }

  append(record: CycleRecord): void {
    this.list.push(record);
    if (this.list.length > KEEP) this.list.splice(0, this.list.length - KEEP);
    if (!this.file) return;
    try {
      this.fs.mkdirSync(path.dirname(this.file), { recursive: true });
      appendLineSync(this.fs, this.file, JSON.stringify(record));
    } catch (err) {
      const problem = `the cycle ledger could not be written to ${this.file} (${(err as Error).message}); what was saved stays as it is and this run's records are kept in memory. Free disk space or check the folder's permissions.`;
      if (this.onWriteFailed) this.onWriteFailed(problem);
      else if (!this.warned) {
        this.warned = true;
        this.onError(problem);
      }
    }
  }
}

/** Every good record of a ledger file (none when it is missing or unreadable). Only reads. */
export function readRecords(file: string, fs: HistoryFs = realFs): CycleRecord[] {
  const read = readJsonLines(fs, file);
  return read.kind === 'lines' ? parseLines(read.lines).records : [];
}

/** The records in `lines`, the good lines as written, and how many were damaged. */
function parseLines(lines: readonly string[]): {
  records: CycleRecord[];
  good: string[];
  bad: number;
} {
  const records: CycleRecord[] = [];
  const good: string[] = [];
  let bad = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const r = parseRecord(line);
    if (r) {
      records.push(r);
      good.push(line);
    } else bad += 1;
  }
  return { records, good, bad };
}

function parseRecord(line: string): CycleRecord | undefined {
  try {
    const r = JSON.parse(line) as CycleRecord | null;
    if (typeof r?.at === 'number' && typeof r.reason === 'string') return r;
  } catch {
    // A line cut by a crash, or junk: the rest of the ledger is still good.
  }
  return undefined;
}
