/**
 * The journal that goes with the current session: opened from the session's folder (the
 * journal file) and the app home's data folder (the backups), switched with the session.
 */
import { Listeners } from '../core/listeners.js';
import path from 'node:path';
import { Journal, type UndoLimits } from './journal.js';

/** Where a session's backups live: `<data>/undo/<session id>/`, under the app home. */
export function backupDir(dataDir: string, sessionId: string): string {
  return path.join(dataDir, 'undo', sessionId);
}

/** Holds the current session's journal; `switchTo` follows `/new` and session switches. */
export class SessionJournal {
  private journal: Journal;
  private readonly listeners = new Listeners();
  private unlisten: () => void;

  constructor(
    private readonly dataDir: string,
    private readonly limits: UndoLimits,
    session: { id: string; dir: string },
  ) {
    this.journal = Journal.open(session.dir, backupDir(dataDir, session.id), limits);
    this.unlisten = this.journal.onChange(() => this.changed());
  }

  /** The current session's journal. */
  current(): Journal {
    return this.journal;
  }

  /** Closes the old journal and opens the one of `session`. */
  switchTo(session: { id: string; dir: string }): void {
    this.unlisten();
    this.journal.close();
    this.journal = Journal.open(session.dir, backupDir(this.dataDir, session.id), this.limits);
    this.unlisten = this.journal.onChange(() => this.changed());
    this.changed();
  }

  /** Told whenever the current journal changes or is switched. */
  onChange(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  close(): void {
    this.unlisten();
    this.journal.close();
  }

  private changed(): void {
    this.listeners.emit();
  }
}
