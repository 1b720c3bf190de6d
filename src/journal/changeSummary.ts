/**
 * What the whole session's changes add up to, kept while only the newest changes stay in
 * memory: the paths left changed (the status bar's count, the instruction files Cogito
 * changed) and the backups in the order they were first taken (what the size cap removes
 * first). Each grows with the distinct paths changed or the backups held, never with the
 * number of changes.
 */
import type { ChangeEntry } from './changeBook.js';

export class ChangeSummary {
  /** Each path a change not undone left changed, with its latest change's id. */
  readonly changed = new Map<string, string>();
  /** The main path of each change not undone (see `Journal.filesChanged`). */
  readonly mainPaths = new Set<string>();
  /** Backup hashes changes refer to, oldest first; a hash leaves when its backup is evicted. */
  readonly backups = new Set<string>();

  /** The summary of `entries` (oldest first), with only the backups the store still holds. */
  static of(entries: readonly ChangeEntry[], held: (hash: string) => boolean): ChangeSummary {
    const s = new ChangeSummary();
    for (const e of entries) {
      s.began(e);
      if (e.state === 'done') s.done(e);
    }
    for (const h of s.backups) if (!held(h)) s.backups.delete(h);
    return s;
  }

  began(e: ChangeEntry): void {
    for (const p of e.paths) {
      if (!p.backup) continue;
      for (const node of Object.values(p.before)) if (node.k === 'f') this.backups.add(node.h);
    }
  }

  done(e: ChangeEntry): void {
    for (const p of e.paths) this.changed.set(p.path, e.id);
    const main = e.paths[0]?.path ?? e.made[e.made.length - 1];
    if (main !== undefined) this.mainPaths.add(main);
  }
}
