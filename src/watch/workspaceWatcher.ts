import path from 'node:path';
import type { Stats } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import { addChange, changeCount, emptyChanges, type WorkspaceChanges } from './changes.js';
import { IGNORE_FILES, loadIgnore } from './ignore.js';
import { EntryCap, DEFAULT_MAX_ENTRIES } from './entryCap.js';
import type { OwnWrites } from './ownWrites.js';

export { DEFAULT_MAX_ENTRIES };

export interface WatcherOptions {
  root: string;
  /** Events closer together than this arrive as one batch. */
  debounceMs?: number;
  ownWrites?: OwnWrites;
  /** `watch.ignore`: `.gitignore`-style patterns left out besides the workspace's own files. */
  ignore?: readonly string[];
  /** `watch.maxEntries`: files and folders watched at most (default 20,000). */
  maxEntries?: number;
  /** Told once per batch with what changed (never empty). */
  onChange(changes: WorkspaceChanges): void;
  /** Told when the watcher fails (too many files, no permission); it stops itself then. */
  onError?(message: string): void;
  /** Told once when the entry cap is reached (what is watched, what to do about it). */
  onNotice?(message: string): void;
}

/** A running watcher; `close` is idempotent and safe on every exit path. */
export interface WorkspaceWatcher {
  /** Resolves once the initial scan is done (events before it are not reported). */
  ready: Promise<void>;
  /** Files and folders the watcher holds now, as chokidar counts them (for tests, benches). */
  watchedCount(): number;
  close(): Promise<void>;
}

const KIND = {
  add: 'created',
  addDir: 'created',
  change: 'modified',
  unlink: 'removed',
  unlinkDir: 'removed',
} as const;

/**
 * Watches the workspace recursively (chokidar) and reports debounced batches of created,
 * modified and removed paths. Bounded: symbolic links are watched as links and never followed
 * (a loop `loop -> .` is one entry); `.git`, dependency and build folders, the root `.gitignore`
 * and `.cogitoignore`, and `watch.ignore` are left out; and at most `maxEntries` files and
 * folders are watched (past the cap the rest is left to the timed looks, with one notice).
 * The agent's own writes are not reported. A rename arrives as removed + created.
 */
export function watchWorkspace(opts: WatcherOptions): WorkspaceWatcher {
  const debounceMs = opts.debounceMs ?? 250;
  const extra = opts.ignore ?? [];
  let ignored = loadIgnore(opts.root, extra);
  const cap = new EntryCap(opts.maxEntries ?? DEFAULT_MAX_ENTRIES, (m) => opts.onNotice?.(m));
  let pending = emptyChanges();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const relOf = (abs: string): string => path.relative(opts.root, abs).split(path.sep).join('/');

  const flush = (): void => {
    timer = undefined;
    const batch = pending;
    pending = emptyChanges();
    if (!closed && changeCount(batch) > 0) opts.onChange(batch);
  };
  const watcher: FSWatcher = watch(opts.root, {
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    ignored: (abs: string, stats?: Stats) => {
      const rel = relOf(abs);
      if (rel === '' || rel.startsWith('..')) return false;
      // Asked first without stats: a folder-only pattern cannot be judged yet, the cap can.
      if (ignored(rel, stats?.isDirectory() ?? false)) return true;
      return !cap.admit(rel, stats !== undefined);
    },
  });
  watcher.on('all', (event, abs) => {
    const kind = KIND[event as keyof typeof KIND];
    if (kind === undefined || closed) return;
    const rel = relOf(abs);
    if (rel === '' || rel.startsWith('..')) return;
    if (kind === 'removed') cap.release(rel, event === 'unlinkDir');
    if (IGNORE_FILES.includes(rel)) ignored = loadIgnore(opts.root, extra);
    // Paths taken on before an ignore file changed still send events: judged again here.
    const folder = event === 'addDir' || event === 'unlinkDir';
    if (ignored(rel, folder) || (!folder && ignored(rel, true))) return;
    if (opts.ownWrites?.isOwn(abs)) return;
    addChange(pending, kind, rel);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  watcher.on('error', (err) => {
    opts.onError?.(
      `the workspace watcher stopped (${err instanceof Error ? err.message : String(err)}); changes are noticed at the next look instead`,
    );
    void close();
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    await watcher.close().catch(() => undefined);
  };
  const watchedCount = (): number => {
    let n = 0;
    for (const children of Object.values(watcher.getWatched())) n += children.length;
    return n;
  };
  return { ready, watchedCount, close };
}
