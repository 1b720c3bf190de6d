/**
 * One session's change journal: `changes.jsonl` in the session folder plus the backup store
 * under the app home. Appends are synchronous and reach the kernel before the change they
 * describe is made, so a kill -9 at any moment leaves a journal that says what happened.
 */
import { Listeners } from '../core/listeners.js';
import fs from 'node:fs';
import path from 'node:path';
import { BlobStore } from './blobStore.js';
import type { ChangeStart, JournalRecord, PathBefore } from './records.js';
import { parseJournalLine } from './journalLine.js';
import { realFs } from '../core/fsPort.js';
import { keepAsideAndRewrite, readJsonLines } from '../core/jsonLines.js';
import type { FlatTree } from './snapshot.js';

/** The journal's file name inside a session folder. */
export const JOURNAL_FILE = 'changes.jsonl';

/** The undo limits from the config (`undo.maxBytes`, `undo.maxFileBytes`). */
export interface UndoLimits {
  /** Backups kept per session; the oldest are evicted beyond it. */
  maxBytes: number;
  /** A file larger than this is not backed up, so changing it needs approval. */
  maxFileBytes: number;
}

/** A change as the journal knows it now. */
export interface ChangeEntry extends ChangeStart {
  state: 'pending' | 'done' | 'none' | 'undone';
  /** Main paths (plus the trash place of a delete), with their trees after the change. */
  paths: readonly (PathBefore & { after?: FlatTree })[];
  made: readonly string[];
  trash?: string;
  note?: 'no_change' | 'rolled_back';
}

/** Reads and appends one session's journal. */
export class Journal {
  private readonly list: ChangeEntry[] = [];
  private readonly byId = new Map<string, ChangeEntry>();
  /** Backups removed by the size cap. */
  readonly evicted = new Set<string>();
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
  ) {}

  /**
   * Opens the journal of the session in `sessionDir`, its backups in `blobDir`.
   * A torn last line (a kill mid-write) is skipped.
   */
  static open(sessionDir: string, blobDir: string, limits: UndoLimits): Journal {
    const journal = new Journal(
      path.join(sessionDir, JOURNAL_FILE),
      BlobStore.open(blobDir),
      limits,
    );
    const read = readJsonLines(realFs, journal.file);
    if (read.kind === 'unreadable') {
      journal.repair([], read.problem);
      return journal;
    }
    const lines = read.kind === 'lines' ? read.lines : [];
    const kept: string[] = [];
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const parsed = parseJournalLine(line);
      if ('record' in parsed) {
        const refused = journal.consistency(parsed.record);
        if (refused === undefined) {
          journal.apply(parsed.record);
          kept.push(line);
        } else journal.skipped.push(`${JOURNAL_FILE} line ${i + 1}: ${refused}; skipped`);
      } else if ('problem' in parsed) {
        journal.skipped.push(`${JOURNAL_FILE} line ${i + 1}: ${parsed.problem}; skipped`);
      } else if (i < lines.length - 1) {
        // A torn last line is a kill mid-write; a torn line with more after it is damage.
        journal.skipped.push(`${JOURNAL_FILE} line ${i + 1}: not valid JSON; skipped`);
      }
    }
    const torn = read.kind === 'lines' && read.torn && lines.at(-1)!.trim() !== '';
    if (journal.skipped.length > 0 || torn) journal.repair(kept, undefined);
    return journal;
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

  /** Every change, oldest first. */
  entries(): readonly ChangeEntry[] {
    return this.list;
  }

  get(id: string): ChangeEntry | undefined {
    return this.byId.get(id);
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
    const paths = new Set<string>();
    for (const e of this.list) {
      if (e.state !== 'done') continue;
      const main = e.paths[0]?.path ?? e.made[e.made.length - 1];
      if (main !== undefined) paths.add(main);
    }
    return paths.size;
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
    const seen = new Set<string>();
    for (const e of this.list) {
      for (const p of e.paths) {
        if (!p.backup) continue;
        for (const node of Object.values(p.before)) if (node.k === 'f') seen.add(node.h);
      }
    }
    return [...seen];
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

  /**
   * Why a checked record does not fit the journal read so far (a second `begin` for an id,
   * a `done` that names paths its change never had), or undefined when it fits.
   */
  private consistency(record: JournalRecord): string | undefined {
    if (record.t === 'begin') {
      return this.byId.has(record.e.id) ? `change ${record.e.id} begins twice` : undefined;
    }
    if (record.t !== 'done') return undefined;
    const e = this.byId.get(record.id);
    if (!e) return `it closes change ${record.id}, which never began`;
    if (e.state !== 'pending') return `change ${record.id} is closed twice`;
    const known = new Set(e.paths.map((p) => p.path));
    for (const p of Object.keys(record.after)) {
      if (!known.has(p) && p !== record.trash)
        return `it names ${JSON.stringify(p)}, which change ${record.id} never touched`;
    }
    const may = new Set(e.made);
    const odd = record.made.find((m) => !may.has(m));
    if (odd !== undefined)
      return `it says change ${record.id} made ${JSON.stringify(odd)}, which it never planned`;
    if (record.trash !== undefined && e.op !== 'delete')
      return `only a delete puts things in the trash`;
    return undefined;
  }

  private apply(record: JournalRecord): void {
    switch (record.t) {
      case 'begin': {
        const entry: ChangeEntry = { ...record.e, state: 'pending', paths: [...record.e.paths] };
        this.list.push(entry);
        this.byId.set(entry.id, entry);
        this.seq = Math.max(this.seq, this.list.length);
        break;
      }
      case 'done': {
        const e = this.byId.get(record.id);
        if (!e) return;
        const paths: (PathBefore & { after?: FlatTree })[] = e.paths.map((p) => ({
          ...p,
          after: record.after[p.path] ?? {},
        }));
        if (record.trash !== undefined) {
          paths.push({
            path: record.trash,
            before: {},
            backup: false,
            after: record.after[record.trash] ?? {},
          });
          e.trash = record.trash;
        }
        e.paths = paths;
        e.made = record.made;
        e.state = 'done';
        break;
      }
      case 'none': {
        const e = this.byId.get(record.id);
        if (e) Object.assign(e, { state: 'none', note: record.note });
        break;
      }
      case 'undone':
        for (const id of record.ids) {
          const e = this.byId.get(id);
          if (e) e.state = 'undone';
        }
        break;
      case 'evicted':
        for (const h of record.hashes) this.evicted.add(h);
        break;
    }
  }
}
