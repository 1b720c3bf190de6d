import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/tools/workspace.js';
import { checkPathShape } from '../../src/tools/pathShape.js';
import type { Fixture } from './fixture.js';
import { makeFixture } from './fixture.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(async () => {
  await f.cleanup();
});

describe('Workspace.open', () => {
  it('throws a clear error for a missing folder', async () => {
    const missing = path.join(f.base, 'no-such-folder');
    await expect(Workspace.open(missing)).rejects.toThrow(`Workspace folder not found: ${missing}`);
  });

  it('throws a clear error for a file', async () => {
    const file = path.join(f.ws, 'sub', 'a.txt');
    await expect(Workspace.open(file)).rejects.toThrow('must be a folder');
  });

  it('keeps the real path as root and accepts absolute paths through the given alias', async () => {
    const alias = path.join(f.base, 'alias');
    await fs.symlink(f.ws, alias);
    const ws = await Workspace.open(alias);
    expect(ws.root).toBe(f.ws);
    const r = await ws.resolve(path.join(alias, 'sub', 'a.txt'), { mustExist: true });
    expect(r).toEqual({
      ok: true,
      path: { abs: path.join(f.ws, 'sub', 'a.txt'), rel: 'sub/a.txt' },
    });
  });
});

describe('Workspace.resolve', () => {
  it('gives "." for the root and forward-slash relative paths', async () => {
    expect(await f.workspace.resolve('.')).toEqual({ ok: true, path: { abs: f.ws, rel: '.' } });
    expect(await f.workspace.resolve('./sub/../sub/a.txt')).toEqual({
      ok: true,
      path: { abs: path.join(f.ws, 'sub', 'a.txt'), rel: 'sub/a.txt' },
    });
    expect(await f.workspace.resolve(f.ws)).toEqual({ ok: true, path: { abs: f.ws, rel: '.' } });
  });

  it('allows paths that do not exist yet unless mustExist', async () => {
    const r = await f.workspace.resolve('new/deep/file.txt');
    expect(r).toMatchObject({ ok: true, path: { rel: 'new/deep/file.txt' } });
    const missing = await f.workspace.resolve('new/deep/file.txt', { mustExist: true });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    if (!missing.ok) expect(missing.error.message).toContain('new/deep/file.txt');
  });

  it('checks containment before existence', async () => {
    const r = await f.workspace.resolve('../nothing-here.txt', { mustExist: true });
    expect(r).toMatchObject({ ok: false, error: { kind: 'outside_workspace' } });
  });

  it('keeps a final symlink lexical (the link, not its target) when it stays inside', async () => {
    const r = await f.workspace.resolve('inner-link', { mustExist: true });
    expect(r).toEqual({
      ok: true,
      path: { abs: path.join(f.ws, 'inner-link'), rel: 'inner-link' },
    });
  });

  it('rejects an empty path with a hint', async () => {
    const r = await f.workspace.resolve('  ');
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    if (!r.ok) expect(r.error.message).toContain('"."');
  });

  it('refuses the look-alike sibling folder even though it shares the prefix', async () => {
    const r = await f.workspace.resolve(path.join(f.evil, 'secret.txt'));
    expect(r).toMatchObject({ ok: false, error: { kind: 'outside_workspace' } });
  });

  it('follows a chain of dangling symlinks to judge where a write would land', async () => {
    await fs.symlink('dangling', path.join(f.ws, 'chain'));
    const r = await f.workspace.resolve('chain');
    expect(r).toMatchObject({ ok: false, error: { kind: 'outside_workspace' } });
    await fs.unlink(path.join(f.ws, 'chain'));
  });
});

describe('case sensitivity', () => {
  const upper = (): string => path.join(f.ws.toUpperCase(), 'sub', 'a.txt');

  it.each(['darwin', 'win32'] as const)('compares case-insensitively on %s', async (platform) => {
    const ws = await Workspace.open(f.ws, { platform });
    expect(ws.caseInsensitive).toBe(true);
    const r = await ws.resolve(upper());
    expect(r).toEqual({
      ok: true,
      path: { abs: path.join(f.ws, 'sub', 'a.txt'), rel: 'sub/a.txt' },
    });
    const sibling = await ws.resolve(path.join(f.evil.toUpperCase(), 'secret.txt'));
    expect(sibling).toMatchObject({ ok: false, error: { kind: 'outside_workspace' } });
  });

  it('compares case-sensitively on linux', async () => {
    const ws = await Workspace.open(f.ws, { platform: 'linux' });
    expect(ws.caseInsensitive).toBe(false);
    expect(await ws.resolve(upper())).toMatchObject({
      ok: false,
      error: { kind: 'outside_workspace' },
    });
  });

  it('isUnder honours the case rule', async () => {
    const mac = await Workspace.open(f.ws, { platform: 'darwin' });
    const linux = await Workspace.open(f.ws, { platform: 'linux' });
    expect(mac.isUnder('.Cogito-Trash/x', '.cogito-trash')).toBe(true);
    expect(linux.isUnder('.Cogito-Trash/x', '.cogito-trash')).toBe(false);
    expect(linux.isUnder('.cogito-trash', '.cogito-trash')).toBe(true);
  });
});

describe('checkPathShape', () => {
  it.each([
    ['a\0b', 'NUL'],
    ['~', 'home'],
    ['~/notes', 'home'],
    ['~alice/notes', 'home'],
    ['C:\\x', 'drive'],
    ['D:', 'drive'],
    ['\\\\srv\\share', 'UNC'],
    ['//srv/share', 'UNC'],
    ['..\\x', '..\\'],
    ['%2e%2e/x', 'URL-encoded'],
    ['https://example.com/a', 'URL'],
  ])('refuses %j (%s)', (input, word) => {
    expect(checkPathShape(input, true)).toContain(word);
  });

  it.each([
    '~draft.txt',
    '100%.txt',
    'a%20b.txt',
    'notes, draft (1).txt',
    'notes:v2.txt',
    '中文.md',
  ])('accepts %j', (input) => {
    expect(checkPathShape(input, true)).toBeUndefined();
  });

  it('leaves Windows forms to the containment check on Windows', () => {
    expect(checkPathShape('C:\\x', false)).toBeUndefined();
    expect(checkPathShape('\\\\srv\\share', false)).toBeUndefined();
  });
});
