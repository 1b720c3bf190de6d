import { t, type Lang } from '../i18n/messages.js';

export { DEFAULT_MAX_ENTRIES } from '../config/defaults.js';

/**
 * The watcher's entry cap: which files and folders it has taken on, and at most how many.
 * Each watched entry costs the watcher an OS watch and its bookkeeping, so a tree of any size
 * (a dataset, a home folder) costs at most the cap. Past it, new paths are turned away and
 * the user is told once; removing watched paths makes room again.
 */
export class EntryCap {
  private readonly admitted = new Set<string>();
  private told = false;

  constructor(
    private readonly max: number,
    private readonly notice: (message: string) => void,
    private readonly lang: Lang = 'en',
  ) {}

  /** Whether `rel` may be watched; taken on (and counted) when there is room. */
  admit(rel: string): boolean {
    if (this.admitted.has(rel)) return true;
    if (this.admitted.size >= this.max) {
      this.full();
      return false;
    }
    this.admitted.add(rel);
    return true;
  }

  /** A watched path (and, for a folder, all under it) is gone: its room is free again. */
  release(rel: string, folder: boolean): void {
    if (!this.admitted.delete(rel) || !folder) return;
    const prefix = `${rel}/`;
    for (const p of this.admitted) if (p.startsWith(prefix)) this.admitted.delete(p);
  }

  /** No room left: a folder being read need not be read further. */
  get isFull(): boolean {
    return this.admitted.size >= this.max;
  }

  get size(): number {
    return this.admitted.size;
  }

  private full(): void {
    if (this.told) return;
    this.told = true;
    const n = this.max.toLocaleString('en-US');
    this.notice(t(this.lang, 'notice.watchCap', { n }));
  }
}
