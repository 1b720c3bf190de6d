import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkspaceChanges } from '../../src/watch/changes.js';
import { treeFingerprint } from '../../src/watch/fingerprint.js';
import { loadIgnore } from '../../src/watch/ignore.js';
import { watchWorkspace, type WorkspaceWatcher } from '../../src/watch/workspaceWatcher.js';
import { waitUntil } from '../helpers/waitFor.js';

/** Hostile trees in real temp folders, against the real watcher. */
describe('the workspace watcher is bounded', () => {
  const dirs: string[] = [];
  let watcher: WorkspaceWatcher | undefined;
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  async function tempDir(): Promise<string> {
    const d = await mkdtemp(path.join(os.tmpdir(), 'cogito-watch-'));
    dirs.push(d);
    return d;
  }

  async function files(dir: string, n: number, prefix = 'f'): Promise<void> {
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < n; i++) await writeFile(path.join(dir, `${prefix}${i}.txt`), `${i}`);
  }

  /** Starts a watcher and waits (with a deadline) for its first scan to finish. */
  async function start(
    root: string,
    extra: { ignore?: string[]; maxEntries?: number } = {},
  ): Promise<{ batches: WorkspaceChanges[]; notices: string[] }> {
    const batches: WorkspaceChanges[] = [];
    const notices: string[] = [];
    watcher = watchWorkspace({
      root,
      debounceMs: 50,
      ...extra,
      onChange: (c) => batches.push(c),
      onNotice: (m) => notices.push(m),
      onError: (m) => notices.push(`error: ${m}`),
    });
    let ready = false;
    void watcher.ready.then(() => (ready = true));
    await waitUntil(() => ready, 'the first scan to finish', 10_000);
    return { batches, notices };
  }

  const all = (batches: WorkspaceChanges[]): string[] =>
    batches.flatMap((b) => [...b.created, ...b.modified, ...b.removed]);

  it('a symlink loop (loop -> .) and a link out of the workspace: the scan ends, links are not followed', async () => {
    const ws = await tempDir();
    const outside = await tempDir();
    await files(path.join(ws, 'a', 'b'), 3);
    await files(outside, 300);
    await symlink('.', path.join(ws, 'loop'));
    await symlink('..', path.join(ws, 'a', 'up'));
    await symlink(outside, path.join(ws, 'out'));
    const { batches, notices } = await start(ws);
    // a, a/b, 3 files, 3 links (and the root): nothing through the links.
    expect(watcher!.watchedCount()).toBeLessThanOrEqual(12);
    expect(notices).toEqual([]);
    await writeFile(path.join(outside, 'secret.txt'), 'outside');
    await writeFile(path.join(ws, 'a', 'new.txt'), 'inside');
    await waitUntil(() => all(batches).includes('a/new.txt'), 'the inside change', 5000);
    expect(all(batches).filter((p) => /^(loop|out)\/|\/up\//.test(p))).toEqual([]);
  });

  it('the fingerprint of a tree with a symlink loop ends, and changes outside do not move it', async () => {
    const ws = await tempDir();
    const outside = await tempDir();
    await files(path.join(ws, 'notes'), 5);
    await symlink('.', path.join(ws, 'loop'));
    await symlink(outside, path.join(ws, 'out'));
    const before = await treeFingerprint(ws, loadIgnore(ws));
    await writeFile(path.join(outside, 'x.txt'), 'outside');
    expect(await treeFingerprint(ws, loadIgnore(ws))).toBe(before);
    await writeFile(path.join(ws, 'notes', 'y.txt'), 'inside');
    expect(await treeFingerprint(ws, loadIgnore(ws))).not.toBe(before);
  });

  it('.gitignore, watch.ignore and build/dependency folders with many files are not watched', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, '.gitignore'), 'logs/\n*.tmp\n!keep.tmp\n');
    await files(path.join(ws, 'logs', 'deep'), 1500);
    await files(path.join(ws, 'data'), 500);
    await files(path.join(ws, 'node_modules', 'pkg'), 300);
    await files(path.join(ws, 'dist'), 300);
    await files(path.join(ws, '.venv', 'lib'), 300);
    await files(path.join(ws, 'src'), 5);
    const { batches } = await start(ws, { ignore: ['data/'] });
    // .gitignore, src and its 5 files: none of the 2,900 ignored files.
    expect(watcher!.watchedCount()).toBeLessThanOrEqual(10);
    await writeFile(path.join(ws, 'logs', 'deep', 'f1.txt'), 'noise');
    await writeFile(path.join(ws, 'data', 'f1.txt'), 'noise');
    await writeFile(path.join(ws, 'dist', 'f1.txt'), 'noise');
    await writeFile(path.join(ws, 'scratch.tmp'), 'noise');
    await writeFile(path.join(ws, 'keep.tmp'), 'kept by the negation');
    await writeFile(path.join(ws, 'src', 'real.md'), 'signal');
    await waitUntil(() => all(batches).includes('src/real.md'), 'the real change', 5000);
    await waitUntil(() => all(batches).includes('keep.tmp'), 'the negated pattern', 5000);
    expect(all(batches).sort()).toEqual(['keep.tmp', 'src/real.md']);
  });

  it('a .gitignore edited while watching counts from then on', async () => {
    const ws = await tempDir();
    await files(path.join(ws, 'cache'), 2);
    const { batches } = await start(ws);
    await writeFile(path.join(ws, '.gitignore'), 'cache/\n');
    await waitUntil(() => all(batches).includes('.gitignore'), 'the ignore file change', 5000);
    await writeFile(path.join(ws, 'cache', 'f0.txt'), 'noise');
    await writeFile(path.join(ws, 'after.md'), 'signal');
    await waitUntil(() => all(batches).includes('after.md'), 'the later change', 5000);
    expect(all(batches).filter((p) => p.startsWith('cache'))).toEqual([]);
  });

  it('a tree above watch.maxEntries: one notice, and the cap holds as files keep coming', async () => {
    const ws = await tempDir();
    for (let d = 0; d < 20; d++) await files(path.join(ws, `d${d}`), 25);
    const { notices } = await start(ws, { maxEntries: 100 });
    expect(watcher!.watchedCount()).toBeLessThanOrEqual(101);
    expect(watcher!.watchedCount()).toBeGreaterThanOrEqual(50);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/more than 100 files and folders.*watch\.maxEntries/);
    await files(path.join(ws, 'burst'), 200);
    await files(path.join(ws, 'd0'), 200, 'g');
    // The burst is seen by the folders' watches, but none of it is taken on.
    await waitUntil(() => watcher!.watchedCount() <= 101, 'the cap to hold', 1000);
    expect(watcher!.watchedCount()).toBeLessThanOrEqual(101);
    expect(notices).toHaveLength(1);
  });
});

describe('what the watcher reports', () => {
  it('created, modified and removed files and folders, as workspace paths', async () => {
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-watch-'));
    await mkdir(path.join(ws, 'old'));
    await writeFile(path.join(ws, 'old', 'x.txt'), 'x');
    await writeFile(path.join(ws, 'a.txt'), 'a');
    const batches: WorkspaceChanges[] = [];
    const w = watchWorkspace({ root: ws, debounceMs: 50, onChange: (c) => batches.push(c) });
    try {
      await w.ready;
      const merged = (): WorkspaceChanges => ({
        created: batches.flatMap((b) => b.created),
        modified: batches.flatMap((b) => b.modified),
        removed: batches.flatMap((b) => b.removed),
      });
      await mkdir(path.join(ws, 'new', 'deep'), { recursive: true });
      await writeFile(path.join(ws, 'new', 'deep', 'n.md'), 'n');
      await writeFile(path.join(ws, 'a.txt'), 'a, edited');
      await rm(path.join(ws, 'old'), { recursive: true });
      await waitUntil(
        () => merged().created.includes('new/deep/n.md') && merged().removed.includes('old'),
        'the changes',
        5000,
      );
      await waitUntil(() => merged().modified.includes('a.txt'), 'the edit', 5000);
      expect(merged().created).toEqual(
        expect.arrayContaining(['new', 'new/deep', 'new/deep/n.md']),
      );
      expect(merged().removed).toContain('old');
      expect(merged().removed.every((p) => p === 'old' || p.startsWith('old/'))).toBe(true);
      // Writes inside the new folder keep being seen: it is watched as soon as it appears.
      await writeFile(path.join(ws, 'new', 'deep', 'n.md'), 'n2');
      await waitUntil(() => merged().modified.includes('new/deep/n.md'), 'the nested edit', 5000);
      // a.txt, new, new/deep, new/deep/n.md: nothing of old is held any more.
      expect(w.watchedCount()).toBe(4);
    } finally {
      await w.close();
      await rm(ws, { recursive: true, force: true });
    }
  });
});
