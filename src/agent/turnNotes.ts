import type { HistoryMessage } from '../core/messages.js';

/** Past this many notes, the ones whose message left the history are dropped. */
const PRUNE_AT = 2000;

/**
 * The per-turn notes of this run, each pinned after the history message that was last when
 * its turn was built. Kept in memory only: after a restart the first request misses the
 * provider's cache once, and every request after that extends the previous one again.
 */
export class TurnNotes {
  private readonly byAnchor = new Map<string, string[]>();
  private count = 0;

  /** Pins `note` after the last message of `history` (or before all of them when empty). */
  add(history: readonly HistoryMessage[], note: string): void {
    const anchor = history.at(-1)?.id ?? '';
    const list = this.byAnchor.get(anchor);
    if (list) list.push(note);
    else this.byAnchor.set(anchor, [note]);
    this.count += 1;
    if (this.count > PRUNE_AT) this.prune(history);
  }

  /** The notes by anchor, as `buildChatMessages` takes them. */
  get map(): ReadonlyMap<string, readonly string[]> {
    return this.byAnchor;
  }

  /** Forgets everything (a new session, or a compaction that rewrote the history). */
  clear(): void {
    this.byAnchor.clear();
    this.count = 0;
  }

  private prune(history: readonly HistoryMessage[]): void {
    const ids = new Set(history.map((m) => m.id));
    for (const key of [...this.byAnchor.keys()]) {
      if (key !== '' && !ids.has(key)) this.byAnchor.delete(key);
    }
    this.count = [...this.byAnchor.values()].reduce((n, l) => n + l.length, 0);
  }
}
