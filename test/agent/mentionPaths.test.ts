/**
 * The `@` completion's candidates over a real temp folder: nearest and shortest first,
 * ignores and Cogito's own places left out, the walk capped and done once, a symlink loop
 * listed but never entered.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPathIndex, matchScore, mentionAt } from '../../src/agent/mentionPaths.js';
import { Workspace } from '../../src/tools/workspace.js';

let tmp: string;
let ws: Workspace;

async function put(rel: string, text = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
  await writeFile(path.join(tmp, rel), text);
}

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-mentionpaths-')));
  ws = await Workspace.open(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('mentionAt', () => {
  it('finds the @ token ending at the cursor, after a space or at the start', () => {
    expect(mentionAt('see @no', 7)).toEqual({ start: 4, query: 'no' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('mail x@y', 8)).toBeUndefined();
    expect(mentionAt('see @no more', 12)).toBeUndefined();
  });
});

describe('matchScore', () => {
  it('ranks path prefix, name prefix, segment, substring, letters in order', () => {
    expect(matchScore('notes/a.md', 'no')).toBe(0);
    expect(matchScore('src/notes.md', 'no')).toBe(1);
    expect(matchScore('a/notes/b.md', 'no')).toBe(2);
    expect(matchScore('annotated.md', 'no')).toBe(3);
    expect(matchScore('n-x-o.md', 'no')).toBe(4);
    expect(matchScore('abc', 'no')).toBeUndefined();
  });
});

describe('createPathIndex', () => {
  it('offers files and folders, nearest and shortest first, at most the limit', async () => {
    await put('notes/a.md');
    await put('notes.md');
    await put('deep/down/notes-old.md');
    await put('annotated.txt');
    for (let i = 0; i < 12; i++) await put(`many/no${i}.txt`);
    const index = createPathIndex({ workspace: ws });
    const got = await index.candidates('no');
    expect(got).toHaveLength(8);
    expect(got.slice(0, 2)).toEqual(['notes/', 'notes.md']);
    expect(got).not.toContain('annotated.txt');
    expect(await index.candidates('notes/')).toEqual(['notes/', 'notes/a.md']);
  });

  it('leaves out ignored, version-control, dependency and fenced paths', async () => {
    await put('.gitignore', 'secret-*\n');
    await put('secret-plan.md');
    await put('.git/notes');
    await put('node_modules/notes/index.js');
    await put('home/config.json');
    await put('public/notes.md');
    await put('own/notes.md');
    const index = createPathIndex({ workspace: ws, hidden: [path.join(tmp, 'own')] });
    const all = await index.candidates('', 50);
    expect(all).toContain('public/notes.md');
    expect(all.some((p) => p.startsWith('secret-'))).toBe(false);
    expect(all.some((p) => p.startsWith('.git/'))).toBe(false);
    expect(all.some((p) => p.includes('node_modules'))).toBe(false);
    expect(all.some((p) => p.startsWith('own'))).toBe(false);
  });

  it('never offers what the resolver refuses (Cogito fenced files)', async () => {
    await put('notes.md');
    const fenced = {
      root: ws.root,
      resolve: async (rel: string) =>
        rel === 'notes.md'
          ? ({ ok: false, error: { kind: 'denied', message: 'no' } } as const)
          : ws.resolve(rel),
    };
    const index = createPathIndex({ workspace: fenced as never });
    expect(await index.candidates('notes')).toEqual([]);
  });

  it('stops the walk at the cap, keeping the nearer paths, and walks once', async () => {
    for (let i = 0; i < 20; i++) await put(`d${i}/f.txt`);
    await put('top.txt');
    let t = 0;
    const index = createPathIndex({ workspace: ws, maxEntries: 25, now: () => t });
    expect(await index.candidates('top')).toEqual(['top.txt']);
    expect(index.stats()).toEqual({ entries: 25, capped: true });
    // Within the age, a new file is not seen; after invalidate (a change) it is.
    await put('top2.txt');
    t = 1000;
    expect(await index.candidates('top')).toEqual(['top.txt']);
    index.invalidate();
    expect((await index.candidates('top')).length).toBeGreaterThanOrEqual(1);
  });

  it('lists a symlink loop without entering it', async () => {
    await put('a/b/file.md');
    await symlink(path.join(tmp, 'a'), path.join(tmp, 'a', 'b', 'loop'));
    await symlink(tmp, path.join(tmp, 'self'));
    const index = createPathIndex({ workspace: ws });
    const all = await index.candidates('', 100);
    expect(all).toContain('a/b/file.md');
    expect(all).toContain('a/b/loop');
    expect(all.some((p) => p.startsWith('a/b/loop/'))).toBe(false);
    expect(all.some((p) => p.startsWith('self/'))).toBe(false);
  });
});
