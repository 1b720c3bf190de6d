/**
 * Every file tool refuses every escape attempt, and accepts every legitimate odd name.
 * The attempts are one table; each tool gets each attempt in each of its path slots.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolArg } from '../../src/tools/types.js';
import type { Fixture } from './fixture.js';
import { makeFixture, SECRET, text } from './fixture.js';

let f: Fixture;
beforeAll(async () => {
  f = await makeFixture();
});
afterAll(async () => {
  await f.cleanup();
});

/** Escape attempts; functions receive the fixture for absolute paths. */
const ATTEMPTS: readonly (string | ((f: Fixture) => string))[] = [
  // `..` in every position
  '..',
  '../',
  '../outside/secret.txt',
  './../outside/secret.txt',
  'sub/../../outside/secret.txt',
  'sub/./../../outside/secret.txt',
  'sub/../..',
  'a/b/c/../../../../outside/secret.txt',
  'sub/../../ws-evil/secret.txt',
  '../ws-evil/secret.txt',
  // absolute paths outside, including the look-alike sibling
  (x) => path.join(x.evil, 'secret.txt'),
  (x) => x.evil,
  (x) => `${x.ws}-evil/secret.txt`,
  (x) => path.join(x.outside, 'secret.txt'),
  (x) => `${x.ws}/../outside/secret.txt`,
  (x) => x.base,
  '/etc/passwd',
  '/',
  // symlinks out: to a file, to a folder, through a symlinked parent, dangling, nested
  'linkfile',
  'linkdir',
  'linkdir/secret.txt',
  'linkdir/new.txt',
  'linkdir/newdir/x.txt',
  'dangling',
  'sub/deeplink',
  'sub/deeplink/secret.txt',
  'inner-link/deeplink/secret.txt',
  // NUL bytes
  'sub/a.txt\0.png',
  '\0',
  // home forms
  '~',
  '~/x',
  '~/',
  '~root/.ssh/id_rsa',
  // URL-encoded dots and separators
  '%2e%2e/outside/secret.txt',
  '%2E%2E%2Foutside%2Fsecret.txt',
  '..%2f..%2fetc%2fpasswd',
  '%252e%252e/outside/secret.txt',
  'sub/%2e%2e/%2e%2e/outside',
  'file:///etc/passwd',
  // Windows drive and UNC forms on POSIX
  'C:\\Windows\\system32',
  'C:foo',
  'C:/x',
  'c:',
  '\\\\server\\share\\x',
  '//server/share/x',
  '..\\..\\etc\\passwd',
  'sub\\..\\..\\outside',
];

/** Each tool with argument lists that put the attempt `p` in each path slot. */
const CALLS: Record<string, (p: string) => ToolArg[][]> = {
  ls: (p) => [[p]],
  read: (p) => [[p], [p, 1, 10]],
  create: (p) => [[p, 'pwned']],
  edit: (p) => [[p, SECRET, 'pwned']],
  copy: (p) => [
    [p, 'copied.txt'],
    ['sub/a.txt', p],
  ],
  move: (p) => [
    [p, 'moved.txt'],
    ['sub/a.txt', p],
  ],
  mkdir: (p) => [[p]],
  delete: (p) => [[p]],
  find: (p) => [[p], [`${p}/*`], [`${p}/**`]],
  grep: (p) => [
    ['SECRET', p],
    ['.', p],
  ],
};

describe('containment', () => {
  it('has at least 30 attempts and covers every registered tool', () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(CALLS).sort()).toEqual(
      f.registry
        .list()
        .map((t) => t.name)
        .sort(),
    );
  });

  it('refuses every attempt in every tool, naming the path and the root', async () => {
    const failures: string[] = [];
    for (const attempt of ATTEMPTS) {
      const p = typeof attempt === 'string' ? attempt : attempt(f);
      for (const [tool, argLists] of Object.entries(CALLS)) {
        for (const args of argLists(p)) {
          const r = await f.call(tool, ...args);
          const label = `${tool}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
          if (r.ok) {
            failures.push(`${label} succeeded: ${String(r.data).slice(0, 80)}`);
          } else if (r.error.kind !== 'outside_workspace') {
            failures.push(`${label} gave ${r.error.kind}: ${r.error.message}`);
          } else if (!r.error.message.includes(f.ws)) {
            failures.push(`${label} message does not name the root: ${r.error.message}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('left everything outside untouched', async () => {
    expect(await fs.readFile(path.join(f.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(await fs.readFile(path.join(f.evil, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect((await fs.readdir(f.outside)).sort()).toEqual(['secret.txt']);
    expect((await fs.readdir(f.evil)).sort()).toEqual(['secret.txt']);
    expect((await fs.readdir(f.base)).sort()).toEqual(['outside', 'ws', 'ws-evil']);
    expect(await fs.readFile(path.join(f.ws, 'sub', 'a.txt'), 'utf8')).toBe('hello from a\n');
  });

  it('names the offending path and the reason in the message', async () => {
    const r = await f.call('read', '~/x');
    expect(r).toMatchObject({ ok: false, error: { kind: 'outside_workspace' } });
    if (!r.ok) {
      expect(r.error.message).toContain('"~/x"');
      expect(r.error.message).toContain(`only paths inside ${f.ws} are allowed`);
      expect(r.error.message).toContain('home folder');
    }
    const link = await f.call('read', 'linkdir/secret.txt');
    if (!link.ok) expect(link.error.message).toContain('symlink');
  });

  it('never lists outside files through find or grep over the whole workspace', async () => {
    const all = text(await f.call('find', '**/*'));
    expect(all).not.toContain('secret.txt');
    const braces = text(await f.call('find', '{linkdir,sub}/*'));
    expect(braces).toContain('sub/a.txt');
    expect(braces).not.toContain('secret');
    const grep = text(await f.call('grep', 'SECRET'));
    expect(grep).toContain('No matches');
  });
});

const LEGIT_NAMES = [
  'notes, draft (1).txt',
  '中文 文件.txt',
  '.hidden',
  'my file.txt',
  '~draft.txt',
  '100%.txt',
  'a%2eb.txt',
  '..notes.txt',
  'dir with space/(x) [y].md',
  '报告/二〇二四.md',
];

describe('legitimate names', () => {
  it.each(LEGIT_NAMES)('every tool accepts %j', async (name) => {
    const dir = path.posix.dirname(name);
    expect(text(await f.call('create', name, 'hello legit\n'))).toContain('Created');
    expect(text(await f.call('read', name))).toContain('hello legit');
    expect(text(await f.call('ls', dir))).toContain(path.posix.basename(name));
    expect(text(await f.call('find', name))).toContain(name);
    expect(text(await f.call('grep', 'legit', name))).toContain(`${name}:1: hello legit`);
    expect(text(await f.call('edit', name, 'hello', 'bye'))).toContain('Edited');
    expect(text(await f.call('copy', name, `${name}.copy`))).toContain('Copied');
    expect(text(await f.call('move', `${name}.copy`, `${name}.moved`))).toContain('Moved');
    expect(text(await f.call('delete', `${name}.moved`))).toContain('Deleted');
    expect(text(await f.call('mkdir', `${name} folder`))).toContain('Made folder');
    expect(await fs.readFile(path.join(f.ws, name), 'utf8')).toBe('bye legit\n');
  });

  it('accepts absolute paths inside the workspace, and symlinks that stay inside', async () => {
    expect(text(await f.call('read', path.join(f.ws, 'sub', 'a.txt')))).toContain('hello from a');
    expect(text(await f.call('read', 'inner-link/a.txt'))).toContain('hello from a');
    expect(text(await f.call('ls', f.ws))).toContain('sub/');
  });
});
