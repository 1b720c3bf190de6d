/**
 * The changes a journal's records describe, replayed record by record: what `changes.jsonl`
 * says, as entries. The journal keeps one of these with a window (only the newest changes in
 * memory) and replays the whole file into an unbounded one when something needs older
 * changes (`Journal.all`).
 */
import type { ChangeStart, JournalRecord, PathBefore } from './records.js';
import { parseJournalLine } from './journalLine.js';
import type { FlatTree } from './snapshot.js';

/** The journal's file name inside a session folder. */
export const JOURNAL_FILE = 'changes.jsonl';

/** A change as the journal knows it now. */
export interface ChangeEntry extends ChangeStart {
  state: 'pending' | 'done' | 'none' | 'undone';
  /** Main paths (plus the trash place of a delete), with their trees after the change. */
  paths: readonly (PathBefore & { after?: FlatTree })[];
  made: readonly string[];
  trash?: string;
  note?: 'no_change' | 'rolled_back';
}

/** Changes in the order they began; beyond `window` the oldest leave memory. */
export class ChangeBook {
  private readonly entries: ChangeEntry[] = [];
  private readonly byId = new Map<string, ChangeEntry>();
  /**
   * Backups removed by the size cap: one hash per backup removed, and a backup is removed only
   * after `undo.maxBytes` of newer ones were stored, so this grows by a few dozen bytes per
   * file version beyond that cap (see docs/MEMORY-BOUNDS.md).
   */
  readonly evicted = new Set<string>();

  constructor(private readonly window = Infinity) {}

  /** The changes held, oldest first. */
  list(): readonly ChangeEntry[] {
    return this.entries;
  }

  get(id: string): ChangeEntry | undefined {
    return this.byId.get(id);
  }

  /** A book of the newest `window` changes of this one (the same entry objects). */
  trimmed(window: number): ChangeBook {
    const out = new ChangeBook(window);
    for (const h of this.evicted) out.evicted.add(h);
    for (const e of this.entries.slice(-window)) {
      out.entries.push(e);
      out.byId.set(e.id, e);
    }
    return out;
  }

  /**
   * Why a checked record does not fit the journal read so far (a second `begin` for an id,
   * a `done` that names paths its change never had), or undefined when it fits. Only
   * meaningful on an unbounded book (reading the file).
   */
  consistency(record: JournalRecord): string | undefined {
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

  /** Applies one record; a record about a change outside the window changes nothing here. */
  apply(record: JournalRecord): void {
    switch (record.t) {
      case 'begin':
        return this.begin({ ...record.e, state: 'pending', paths: [...record.e.paths] });
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
        return;
      }
      case 'none': {
        const e = this.byId.get(record.id);
        if (e) Object.assign(e, { state: 'none', note: record.note });
        return;
      }
      case 'undone':
        for (const id of record.ids) {
          const e = this.byId.get(id);
          if (e) e.state = 'undone';
        }
        return;
      case 'evicted':
        for (const h of record.hashes) this.evicted.add(h);
        return;
    }
  }

  private begin(entry: ChangeEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    if (this.entries.length <= this.window) return;
    // Shifting one at a time is O(window) per change; the window is a few hundred.
    const gone = this.entries.shift()!;
    this.byId.delete(gone.id);
  }
}

/** What reading the file's lines kept (their text) and refused (each naming line and why). */
export interface Replayed {
  book: ChangeBook;
  kept: string[];
  skipped: string[];
}

/** Replays the lines of `changes.jsonl` into an unbounded book, checking each record. */
export function replayLines(lines: readonly string[]): Replayed {
  const book = new ChangeBook();
  const kept: string[] = [];
  const skipped: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const parsed = parseJournalLine(line);
    if ('record' in parsed) {
      const refused = book.consistency(parsed.record);
      if (refused === undefined) {
        book.apply(parsed.record);
        kept.push(line);
      } else skipped.push(`${JOURNAL_FILE} line ${i + 1}: ${refused}; skipped`);
    } else if ('problem' in parsed) {
      skipped.push(`${JOURNAL_FILE} line ${i + 1}: ${parsed.problem}; skipped`);
    } else if (i < lines.length - 1) {
      // A torn last line is a kill mid-write; a torn line with more after it is damage.
      skipped.push(`${JOURNAL_FILE} line ${i + 1}: not valid JSON; skipped`);
    }
  }
  return { book, kept, skipped };
}
