/**
 * One session's change journal: `changes.jsonl` in the session folder plus the backup store
 * under the app home. Appends are synchronous and reach the kernel before the change they
 * describe is made, so a kill -9 at any moment leaves a journal that says what happened.
 */
import { Listeners } from '../core/listeners.js';
import fs from 'node:fs';
import path from 'node:path';
import { BlobStore } from './blobStore.js';
import type { ChangeStart, JournalRecord } from './records.js';
import { realFs } from '../core/fsPort.js';
import { keepAsideAndRewrite, readJsonLines } from '../core/jsonLines.js';
import type { FlatTree } from './snapshot.js';
import { ChangeBook, JOURNAL_FILE, replayLines, type ChangeEntry } from './changeBook.js';
import { ChangeSummary } from './changeSummary.js';

export { JOURNAL_FILE, type ChangeEntry };

/**
 * Changes kept in memory: more than `/undo`'s usual reach and a screen of `/changes`. Older
 * ones stay in the file and are read back when asked for (`all`).
 */
export const JOURNAL_WINDOW = 256;

/** The undo limits from the config (`undo.maxBytes`, `undo.maxFileBytes`). */
export interface UndoLimits {
  /** Backups kept per session; the oldest are evicted beyond it. */
  maxBytes: number;
  /** A file larger than this is not backed up, so changing it needs approval. */
  maxFileBytes: number;
}

/**
 * Reads and appends one session's journal. Memory holds the newest `window` changes and a
 * summary of all of them; the file holds every change, and older ones are read back from it.
 */
export class Journal {
  private book: ChangeBook;
  private summary = new ChangeSummary();
  /** The summary no longer matches (an undo, a record about a change outside the window). */
  private stale = false;
  /** Changes in the whole journal, in memory or not. */
  private total = 0;
  /** Lines of the file refused when it was read, each naming the line and why (reported). */
  readonly skipped: string[] = [];
  private fd: number | undefined;
  /** The file may end in a cut line left in place: the next record starts on a new line. */
  private tornTail = false;
  private seq = 0;
  private readonly listeners = new Listeners();

  private constructor(
    readonly file: string,
    readonly blobs: BlobStore,
    readonly limits: UndoLimits,
    private readonly window: number,
  ) {
    this.book = new ChangeBook(window);
  }

  /**
   * Opens the journal of the session in `sessionDir`, its backups in `blobDir`.
   * A torn last line (a kill mid-write) is skipped. `window`: changes kept in memory.
   */
  static open(
    sessionDir: string,
    blobDir: string,
    limits: UndoLimits,
    window = JOURNAL_WINDOW,
  ): Journal {
    const journal = new Journal(
      path.join(sessionDir, JOURNAL_FILE),
      BlobStore.open(blobDir),
      limits,
      Math.max(1, window),
    );
    const read = readJsonLines(realFs, journal.file);
    if (read.kind === 'unreadable') {
      journal.repair([], read.problem);
      return journal;
    }
    const lines = read.kind === 'lines' ? read.lines : [];
    const { book, kept, skipped } = replayLines(lines);
    journal.skipped.push(...skipped);
    journal.adopt(book);
    const torn = read.kind === 'lines' && read.torn && lines.at(-1)!.trim() !== '';
    if (journal.skipped.length > 0 || torn) journal.repair(kept, undefined);
    return journal;
  }

  /** Takes the whole journal read from the file: its summary, and its newest changes. */
  private adopt(full: ChangeBook): void {
    const all = full.list();
    this.total = all.length;
    this.seq = Math.max(this.seq, this.total);
    this.summary = ChangeSummary.of(all, (h) => this.blobs.has(h));
    this.book = full.trimmed(this.window);
  }

  /**
   * Keeps the damaged journal aside (`changes.corrupt-<time>.jsonl`) and rewrites it with the
   * lines that were kept, so the next record never glues onto a torn line and the next start
   * does not report the same damage. The copy is named among the skipped lines (reported),
   * also for a torn last line alone (a kill mid-write: its change was never made).
   */
  private repair(kept: readonly string[], unreadable: string | undefined): void {
    const result = keepAsideAndRewrite(realFs, this.file, kept);
    if (unreadable !== undefined)
      this.skipped.push(`${JOURNAL_FILE}: ${unreadable}; its changes cannot be undone`);
    if (result.ok) {
      this.skipped.push(`${JOURNAL_FILE}: the original was kept as ${result.aside}`);
    } else {
      this.skipped.push(`${JOURNAL_FILE}: left as it is: ${result.problem}`);
      this.tornTail = true;
    }
  }

  /** The newest changes, those in memory, oldest first (see `all` for every change). */
  entries(): readonly ChangeEntry[] {
    return this.book.list();
  }

  /** How many changes memory holds (at most the window). */
  inMemory(): number {
    return this.book.list().length;
  }

  /** Whether memory holds every change of the journal (nothing to read back). */
  complete(): boolean {
    return this.book.list().length === this.total;
  }

  /**
   * Every change, oldest first: the in-memory ones when they are all, else the whole file read
   * back (a fresh copy each call, dropped by the caller). If the file cannot be read any more,
   * the changes in memory.
   */
  all(): readonly ChangeEntry[] {
    if (this.complete()) return this.book.list();
    const read = readJsonLines(realFs, this.file);
    if (read.kind !== 'lines') return this.book.list();
    return replayLines(read.lines).book.list();
  }

  /** Backups removed by the size cap. */
  get evicted(): ReadonlySet<string> {
    return this.book.evicted;
  }

  /** A change in memory by its id. */
  get(id: string): ChangeEntry | undefined {
    return this.book.get(id);
  }

  /** A fresh id for a change, unique in this journal. */
  nextId(now: number): string {
    this.seq += 1;
    return `${now.toString(36)}-${this.seq.toString(36)}`;
  }

  /**
   * Files the agent changed in this session and has not undone: each change counts its main
   * path (a move its destination, a delete the deleted path, mkdir the folder it asked for).
   */
  filesChanged(): number {
    return this.current().mainPaths.size;
  }

  /** The paths this session's changes left changed (not undone), each with its latest change. */
  changedPaths(): ReadonlyMap<string, string> {
    return this.current().changed;
  }

  /** The summary, rebuilt from the whole journal after an undo (rare). */
  private current(): ChangeSummary {
    if (this.stale) {
      const full = this.all();
      this.summary = ChangeSummary.of(full, (h) => this.blobs.has(h));
      this.stale = false;
    }
    return this.summary;
  }

  /** Called after every change to the journal (the status bar's count). */
  onChange(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Records a change about to be made. Throws if the journal cannot be written. */
  begin(start: ChangeStart): void {
    this.write({ t: 'begin', e: start });
  }

  /** Records a change made: what its paths hold now. */
  done(id: string, after: Record<string, FlatTree>, made: string[], trash?: string): void {
    this.write({ t: 'done', id, after, made, ...(trash !== undefined ? { trash } : {}) });
  }

  /** Records that a change left nothing changed (it failed, or a crash's half was undone). */
  none(id: string, note: 'no_change' | 'rolled_back'): void {
    this.write({ t: 'none', id, note });
  }

  /** Records changes reverted by /undo. */
  undone(ids: readonly string[]): void {
    if (ids.length > 0) this.write({ t: 'undone', ids });
  }

  /**
   * Makes room for `incoming` more bytes of backups under `limits.maxBytes`, before they are
   * stored (so the cap holds at every moment, the change in progress included): removes the
   * oldest backups first, never those in `keep`. Returns how many backups were removed, or
   * `false` (removing nothing) when even that would not make enough room.
   */
  async makeRoom(incoming: number, keep: ReadonlySet<string>): Promise<number | false> {
    const over = this.blobs.bytes + incoming - this.limits.maxBytes;
    if (over <= 0) return 0;
    const victims: string[] = [];
    let freed = 0;
    // Blobs no change refers to (a skipped journal line's) go first, then the oldest.
    const referenced = this.backupsOldestFirst();
    const known = new Set(referenced);
    const orphans = this.blobs.hashes().filter((h) => !known.has(h));
    for (const hash of [...orphans, ...referenced]) {
      if (freed >= over) break;
      if (keep.has(hash) || !this.blobs.has(hash)) continue;
      victims.push(hash);
      freed += this.blobs.sizeOf(hash);
    }
    if (freed < over) return false;
    for (const hash of victims) await this.blobs.remove(hash);
    this.write({ t: 'evicted', hashes: victims });
    return victims.length;
  }

  /** Closes the file. */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private backupsOldestFirst(): string[] {
    return [...this.current().backups];
  }

  private write(record: JournalRecord): void {
    if (this.fd === undefined) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = fs.openSync(this.file, 'a', 0o600);
    }
    const fence = this.tornTail ? '\n' : '';
    fs.writeSync(this.fd, `${fence}${JSON.stringify(record)}\n`);
    this.tornTail = false;
    // On disk before the change it describes is made: undo survives a power cut too.
    fs.fsyncSync(this.fd);
    this.apply(record);
    this.listeners.emit();
  }

  /** Applies a record written now to the changes in memory and to the summary. */
  private apply(record: JournalRecord): void {
    const before = record.t === 'none' ? this.book.get(record.id)?.state : undefined;
    this.book.apply(record);
    switch (record.t) {
      case 'begin': {
        this.total += 1;
        this.seq = Math.max(this.seq, this.total);
        const e = this.book.get(record.e.id);
        if (e) this.summary.began(e);
        break;
      }
      case 'done': {
        const e = this.book.get(record.id);
        if (e) this.summary.done(e);
        else this.stale = true;
        break;
      }
      case 'none':
        // Closing a pending change changes no sum; anything else is worked out again.
        if (before !== 'pending') this.stale = true;
        break;
      case 'undone':
        this.stale = true;
        break;
      case 'evicted':
        for (const h of record.hashes) this.summary.backups.delete(h);
        break;
    }
  }
}
