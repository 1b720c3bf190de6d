import { lstatSync, watch, type FSWatcher } from 'node:fs';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import type { EntryCap } from './entryCap.js';
import type { IgnoreTest } from './ignore.js';

type TreeEvent = 'created' | 'modified' | 'removed';

interface DirTreeOptions {
  root: string;
  /** Read at each event: the ignore files may change while watching. */
  ignored(): IgnoreTest;
  cap: EntryCap;
  /** An entry appeared, changed or went (never before `scan` resolves). */
  onEvent(kind: TreeEvent, rel: string): void;
  /** The OS refused a watch (the inotify limit, say): the caller stops the tree. */
  onFatal(err: Error): void;
}

/** One watched folder: its OS watch and the entries it holds (name → is a folder). */
interface Dir {
  watcher: FSWatcher;
  names: Map<string, boolean>;
}

/**
 * The workspace as the watcher holds it: one OS watch per folder (`fs.watch`, which reports
 * changes to the files in it by name), never one per file, so a tree costs its folders, and a
 * name per entry. Entries are judged by `lstat`: a symbolic link is an entry like a file,
 * never followed, so `loop -> .` cannot make the walk go round. Folders and files left out by
 * the ignore rules are never read; past the entry cap nothing more is taken on.
 */
export class DirTree {
  private readonly dirs = new Map<string, Dir>();
  private ready = false;
  private closed = false;

  constructor(private readonly o: DirTreeOptions) {}

  /** Watches and reads the whole tree (within the rules); events are reported from then on. */
  async scan(): Promise<void> {
    const queue = [''];
    while (queue.length > 0 && !this.closed) {
      const rel = queue.shift()!;
      const subdirs = await this.readDir(rel, false);
      queue.push(...subdirs);
    }
    this.ready = true;
  }

  close(): void {
    this.closed = true;
    for (const d of this.dirs.values()) d.watcher.close();
    this.dirs.clear();
  }

  /**
   * Starts watching folder `rel` (before reading it, so nothing created meanwhile is missed)
   * and takes on its entries; returns the subfolders taken on. `report`: tell each new entry.
   */
  private async readDir(rel: string, report: boolean): Promise<string[]> {
    if (this.closed || this.dirs.has(rel)) return [];
    const abs = path.join(this.o.root, rel);
    let watcher: FSWatcher;
    try {
      watcher = watch(abs, { persistent: true }, (_type, name) => this.onDirEvent(rel, name));
    } catch (err) {
      this.fail(err);
      return [];
    }
    watcher.on('error', () => this.forget(rel));
    const dir: Dir = { watcher, names: new Map() };
    this.dirs.set(rel, dir);
    const subdirs: string[] = [];
    try {
      for await (const entry of await opendir(abs)) {
        if (this.closed) break;
        const child = join(rel, entry.name);
        // The cap is reached: the rest of this folder would be turned away name by name.
        if (this.o.cap.isFull && !dir.names.has(entry.name)) {
          this.o.cap.admit(child);
          break;
        }
        const isDir = entry.isDirectory();
        if (dir.names.has(entry.name) || !this.take(child, isDir)) continue;
        dir.names.set(entry.name, isDir);
        if (report) this.o.onEvent('created', child);
        if (isDir) subdirs.push(child);
      }
    } catch {
      // Unreadable or removed while read: what was read so far is held.
    }
    return subdirs;
  }

  /** Whether `rel` is watched: not ignored, and within the cap. */
  private take(rel: string, isDir: boolean): boolean {
    return !this.o.ignored()(rel, isDir) && this.o.cap.admit(rel);
  }

  /** Something happened to `name` in folder `rel` (or, without a name, somewhere in it). */
  private onDirEvent(rel: string, name: string | Buffer | null): void {
    const dir = this.dirs.get(rel);
    if (this.closed || !dir) return;
    if (name === null) {
      for (const n of dir.names.keys()) this.check(rel, dir, n);
      return;
    }
    this.check(rel, dir, name.toString());
  }

  /** Compares one entry with what is held, and reports the difference. */
  private check(rel: string, dir: Dir, name: string): void {
    const child = join(rel, name);
    const held = dir.names.get(name);
    let isDir: boolean | undefined;
    try {
      isDir = lstatSync(path.join(this.o.root, child)).isDirectory();
    } catch {
      isDir = undefined;
    }
    // Held before an ignore file changed, ignored now: no longer reported.
    if (this.o.ignored()(child, isDir ?? held ?? false)) return;
    if (held !== undefined && isDir !== held) this.drop(dir, name, child);
    if (isDir === undefined) return;
    if (dir.names.has(name)) {
      if (!isDir) this.emit('modified', child);
      return;
    }
    if (!this.take(child, isDir)) return;
    dir.names.set(name, isDir);
    this.emit('created', child);
    if (isDir) void this.readTree(child);
  }

  /** A folder that appeared (made, moved in): it and everything in it, each reported. */
  private async readTree(rel: string): Promise<void> {
    const queue = [rel];
    while (queue.length > 0 && !this.closed) {
      queue.push(...(await this.readDir(queue.shift()!, this.ready)));
    }
  }

  /** An entry went (or changed type): forget it and, for a folder, all under it. */
  private drop(dir: Dir, name: string, child: string): void {
    const wasDir = dir.names.get(name) === true;
    dir.names.delete(name);
    this.o.cap.release(child, wasDir);
    if (wasDir) {
      const prefix = `${child}/`;
      for (const key of [...this.dirs.keys()]) {
        if (key === child || key.startsWith(prefix)) this.forget(key);
      }
    }
    this.emit('removed', child);
  }

  private forget(rel: string): void {
    this.dirs.get(rel)?.watcher.close();
    this.dirs.delete(rel);
  }

  private emit(kind: TreeEvent, rel: string): void {
    if (this.ready && !this.closed) this.o.onEvent(kind, rel);
  }

  private fail(err: unknown): void {
    const e = err as NodeJS.ErrnoException;
    // A folder that went or cannot be read is simply not watched; running out of OS watches
    // (ENOSPC, EMFILE) stops the watcher, with a notice.
    if (e.code === 'ENOSPC' || e.code === 'EMFILE') this.o.onFatal(e);
  }
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
