import { t, type Lang } from '../i18n/messages.js';
import path from 'node:path';
import { DirTree } from './dirTree.js';
import { addChange, changeCount, emptyChanges, type WorkspaceChanges } from './changes.js';
import { IGNORE_FILES, loadIgnore } from './ignore.js';
import { EntryCap, DEFAULT_MAX_ENTRIES } from './entryCap.js';
import type { OwnWrites } from './ownWrites.js';

interface WatcherOptions {
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
  /** The screen's language, for the notices (default English). */
  lang?: Lang;
}

/** A running watcher; `close` is idempotent and safe on every exit path. */
export interface WorkspaceWatcher {
  /** Resolves once the initial scan is done (events before it are not reported). */
  ready: Promise<void>;
  /** Files and folders the watcher holds now (for tests and benches). */
  watchedCount(): number;
  close(): Promise<void>;
}

/**
 * Watches the workspace recursively and reports debounced batches of created, modified and
 * removed paths. Bounded: one OS watch per folder, not per file (see `DirTree`); symbolic
 * links are entries, never followed (a loop `loop -> .` is one entry); `.git`, dependency and
 * build folders, the root `.gitignore` and `.cogitoignore`, and `watch.ignore` are left out
 * and never read; and at most `maxEntries` files and folders are held (past the cap the rest
 * is left to the timed looks, with one notice). The agent's own writes are not reported. A
 * rename arrives as removed + created.
 */
export function watchWorkspace(opts: WatcherOptions): WorkspaceWatcher {
  const debounceMs = opts.debounceMs ?? 250;
  const extra = opts.ignore ?? [];
  let ignored = loadIgnore(opts.root, extra);
  const cap = new EntryCap(
    opts.maxEntries ?? DEFAULT_MAX_ENTRIES,
    (m) => opts.onNotice?.(m),
    opts.lang,
  );
  let pending = emptyChanges();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    const batch = pending;
    pending = emptyChanges();
    if (!closed && changeCount(batch) > 0) opts.onChange(batch);
  };
  const tree = new DirTree({
    root: opts.root,
    ignored: () => ignored,
    cap,
    onEvent: (kind, rel) => {
      if (closed) return;
      if (IGNORE_FILES.includes(rel)) ignored = loadIgnore(opts.root, extra);
      if (opts.ownWrites?.isOwn(path.join(opts.root, rel))) return;
      addChange(pending, kind, rel);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, debounceMs);
    },
    onFatal: (err) => {
      opts.onError?.(t(opts.lang ?? 'en', 'notice.watchStopped', { error: err.message }));
      void close();
    },
  });
  const ready = tree.scan();
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    tree.close();
    await ready.catch(() => undefined);
  };
  return { ready, watchedCount: () => cap.size, close };
}
