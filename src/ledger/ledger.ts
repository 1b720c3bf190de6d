import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CycleRecord } from '../api/ledger.js';

/** The ledger's file name inside the session folder. */
export const LEDGER_FILE = 'ledger.jsonl';
/** Records kept in memory (the file keeps all of them). */
const KEEP = 2000;

/**
 * The cycle ledger of one session: an append-only JSONL file in the session folder and
 * the recent records in memory. A damaged line is skipped on load; a failed write is
 * reported once and the record is still kept in memory.
 */
export class Ledger {
  private list: CycleRecord[] = [];
  private warned = false;

  constructor(
    readonly file: string | undefined,
    private readonly onError: (message: string) => void = () => {},
  ) {
    if (file) this.list = readRecords(file).slice(-KEEP);
  }

  /** The ledger of the session in `dir`. */
  static inDir(dir: string, onError?: (message: string) => void): Ledger {
    return new Ledger(path.join(dir, LEDGER_FILE), onError);
  }

  records(): readonly CycleRecord[] {
    return this.list;
  }

  append(record: CycleRecord): void {
    this.list.push(record);
    if (this.list.length > KEEP) this.list.splice(0, this.list.length - KEEP);
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(record)}\n`);
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.onError(
          `the cycle ledger could not be written to ${this.file} (${(err as Error).message}); it is kept in memory for this run`,
        );
      }
    }
  }
}

/** Every good record of a ledger file (none when it is missing or unreadable). */
export function readRecords(file: string): CycleRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: CycleRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as CycleRecord;
      if (typeof r.at === 'number' && typeof r.reason === 'string') out.push(r);
    } catch {
      // A line cut by a crash: the rest of the ledger is still good.
    }
  }
  return out;
}
