import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { addChange, changeCount, emptyChanges, type WorkspaceChanges } from './changes.js';
import { IGNORE_FILE, loadIgnore } from './ignore.js';
import type { OwnWrites } from './ownWrites.js';

export interface WatcherOptions {
  root: string;
  /** Events closer together than this arrive as one batch. */
  debounceMs?: number;
  ownWrites?: OwnWrites;
  /** Told once per batch with what changed (never empty). */
  onChange(changes: WorkspaceChanges): void;
  /** Told when the watcher fails (too many files, no permission); it stops itself then. */
  onError?(message: string): void;
}

/** A running watcher; `close` is idempotent and safe on every exit path. */
export interface WorkspaceWatcher {
  /** Resolves once the initial scan is done (events before it are not reported). */
  ready: Promise<void>;
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
 * modified and removed paths, leaving out `.git`, `node_modules`, the trash, whatever
 * `.cogitoignore` lists and the agent's own writes. A rename arrives as removed + created.
 */
export function watchWorkspace(opts: WatcherOptions): WorkspaceWatcher {
  const debounceMs = opts.debounceMs ?? 250;
  let ignored = loadIgnore(opts.root);
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
    ignored: (abs: string) => {
      const rel = relOf(abs);
      return rel !== '' && !rel.startsWith('..') && ignored(rel);
    },
  });
  watcher.on('all', (event, abs) => {
    const kind = KIND[event as keyof typeof KIND];
    if (kind === undefined || closed) return;
    const rel = relOf(abs);
    if (rel === '' || rel.startsWith('..')) return;
    if (rel === IGNORE_FILE) ignored = loadIgnore(opts.root);
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
  return { ready, close };
}
