import fsp from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './fixture.js';
import { GBK_HELLO, makeFixture, text } from './fixture.js';
import { createFindTool, createGrepTool } from '../../src/tools/files/index.js';
import type { FileSystem } from '../../src/tools/files/index.js';
import { FIND_MAX_RESULTS } from '../../src/tools/files/find.js';
import { GREP_MAX_FILE_BYTES, GREP_MAX_MATCHES } from '../../src/tools/files/grep.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
  await f.write('docs/guide.md', '# Guide\nTODO: write\n');
  await f.write('docs/deep/notes.md', 'todo later\n');
  await f.write('node_modules/pkg/readme.md', 'TODO hidden\n');
  await f.write('.git/HEAD.md', 'TODO git\n');
  await f.write('.cogito-trash/old.md', 'TODO trash\n');
});
afterEach(async () => {
  await f.cleanup();
});

const abortedCtx = (): typeof f.ctx => {
  const ac = new AbortController();
  ac.abort();
  return { ...f.ctx, signal: ac.signal };
};

describe('find', () => {
  it('globs relative to the workspace and skips node_modules, .git and the trash', async () => {
    expect(text(await f.call('find', '**/*.md')).split('\n')).toEqual([
      '2 matches for "**/*.md":',
      'docs/deep/notes.md',
      'docs/guide.md',
    ]);
    expect(text(await f.call('find', 'docs/*'))).toContain('docs/deep/');
  });

  it('accepts an absolute pattern inside the workspace and answers relative', async () => {
    expect(text(await f.call('find', `${f.ws}/docs/*.md`)).split('\n')[1]).toBe('docs/guide.md');
  });

  it('caps results and counts the rest', async () => {
    await Promise.all(Array.from({ length: 250 }, (_, i) => f.write(`many/${i}.log`, '')));
    const out = text(await f.call('find', 'many/*.log')).split('\n');
    expect(out[0]).toBe('250 matches for "many/*.log":');
    expect(out).toHaveLength(1 + FIND_MAX_RESULTS + 1);
    expect(out.at(-1)).toMatch(/^… 50 more/);
  });

  it('says when nothing matches, with a hint', async () => {
    expect(text(await f.call('find', '*.pdf'))).toContain('use "**/" to search subfolders');
    expect(await f.call('find', '  ')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
  });

  it('stops when the signal is aborted', async () => {
    const r = await createFindTool().run(['**/*'], abortedCtx());
    expect(r).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });
});

describe('grep', () => {
  it('returns file:line: text for matches, skipping node_modules, .git and the trash', async () => {
    expect(text(await f.call('grep', 'TODO')).split('\n')).toEqual([
      '1 match for "TODO" in 3 files under the workspace:',
      'docs/guide.md:2: TODO: write',
    ]);
  });

  it('supports /pattern/flags and a path that is a folder or a file', async () => {
    const out = text(await f.call('grep', '/todo/i', 'docs'));
    expect(out).toContain('docs/deep/notes.md:1: todo later');
    expect(out).toContain('docs/guide.md:2: TODO: write');
    expect(text(await f.call('grep', 'later', 'docs/deep/notes.md'))).toContain(
      'docs/deep/notes.md:1:',
    );
  });

  it('explains an invalid regex', async () => {
    const r = await f.call('grep', 'foo(');
    expect(r).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_args',
        message: expect.stringContaining('Invalid regular expression "foo("'),
      },
    });
  });

  it('skips binary and large files but searches GBK text', async () => {
    await f.write('bin/data.bin', Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 0, 0])]));
    await f.write('bin/huge.txt', `TODO\n${'x'.repeat(GREP_MAX_FILE_BYTES)}`);
    await f.write('bin/gbk.txt', GBK_HELLO);
    const out = text(await f.call('grep', 'TODO|世界', 'bin'));
    expect(out).toContain('(skipped 2 binary or larger-than-2.0 MB files)');
    expect(out).toContain('bin/gbk.txt:1: 你好，世界');
    expect(out).not.toContain('data.bin');
    expect(out).not.toContain('huge.txt');
  });

  it('caps the matches and says it stopped', async () => {
    await f.write('big/a.txt', 'hit\n'.repeat(GREP_MAX_MATCHES + 50));
    await f.write('big/b.txt', 'hit\n');
    const out = text(await f.call('grep', 'hit', 'big')).split('\n');
    expect(out).toHaveLength(1 + GREP_MAX_MATCHES + 1);
    expect(out.at(-1)).toContain(`stopped after ${GREP_MAX_MATCHES} matches`);
    expect(out.join('\n')).not.toContain('big/b.txt');
  });

  it('checks the signal between files', async () => {
    const ac = new AbortController();
    let reads = 0;
    const fs: FileSystem = {
      ...fsp,
      readFile: ((...args: Parameters<typeof fsp.readFile>) => {
        reads++;
        ac.abort(); // the user interrupts while the first file is read
        return fsp.readFile(...args);
      }) as FileSystem['readFile'],
    };
    const r = await createGrepTool({ fs }).run(['TODO'], { ...f.ctx, signal: ac.signal });
    expect(r).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(reads).toBe(1);
  });

  it('stops before starting when already aborted', async () => {
    const r = await createGrepTool().run(['TODO'], abortedCtx());
    expect(r).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });
});
