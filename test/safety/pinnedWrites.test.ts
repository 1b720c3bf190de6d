/**
 * The handle-checked writes keep what the old writer did: an edit through a symlink inside
 * the workspace changes the file it points to (the link stays a link), an edit keeps the
 * file's permission bits, and a copy never replaces a file that is already there.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, text, type Fixture } from '../tools/fixture.js';

describe('writes through verified folder handles', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await makeFixture();
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('an edit through an inside symlink changes its target and keeps the link', async () => {
    await fs.symlink('sub/a.txt', path.join(f.ws, 'alias.txt'));
    text(await f.call('edit', 'alias.txt', 'hello', 'goodbye'));
    expect((await fs.lstat(path.join(f.ws, 'alias.txt'))).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(path.join(f.ws, 'sub', 'a.txt'), 'utf8')).toBe('goodbye from a\n');
  });

  it('an edit keeps the permission bits, and leaves no temp file behind', async () => {
    const abs = await f.write('tool.sh', '#!/bin/sh\necho one\n');
    await fs.chmod(abs, 0o750);
    text(await f.call('edit', 'tool.sh', 'one', 'two'));
    expect((await fs.stat(abs)).mode & 0o777).toBe(0o750);
    expect(await fs.readdir(f.ws)).not.toContainEqual(expect.stringContaining('cogito-tmp'));
  });

  it('create makes missing folders, and a write through a link out is still refused', async () => {
    text(await f.call('create', 'new/deep/er/file.txt', 'x'));
    expect(await fs.readFile(path.join(f.ws, 'new', 'deep', 'er', 'file.txt'), 'utf8')).toBe('x');
    expect(await f.call('create', 'linkdir/planted.txt', 'x')).toMatchObject({
      ok: false,
      error: { kind: 'outside_workspace' },
    });
    expect(await fs.readdir(f.outside)).toEqual(['secret.txt']);
  });
});
