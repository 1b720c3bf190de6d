import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './fixture.js';
import { GBK_HELLO, makeFixture, text } from './fixture.js';
import { createCreateTool } from '../../src/tools/files/index.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await f.cleanup();
});

const readWs = (rel: string): Promise<string> => fs.readFile(path.join(f.ws, rel), 'utf8');
const exists = (rel: string): Promise<boolean> =>
  fs.lstat(path.join(f.ws, rel)).then(
    () => true,
    () => false,
  );

describe('create', () => {
  it('creates a file and its parent folders', async () => {
    expect(text(await f.call('create', 'a/b/c.md', '# hi\n'))).toBe('Created a/b/c.md (5 B).');
    expect(await readWs('a/b/c.md')).toBe('# hi\n');
  });

  it('asks for approval only when the file exists', async () => {
    const create = f.registry.get('create');
    // A new file: no reason to ask (the kind's policy decides), the content for the card.
    expect(await create?.needsApproval?.(['fresh.txt', 'x'], f.ctx)).toEqual({
      detail: 'x',
      detailKind: 'text',
    });
    const over = await create?.needsApproval?.(['sub/a.txt', 'x'], f.ctx);
    expect(over).toMatchObject({
      reason: 'create would overwrite the existing file "sub/a.txt" (13 B).',
      detailKind: 'diff',
    });
    // The card's diff is against the file as it is now.
    expect(typeof over === 'object' && over.detail).toMatch(
      /^--- a\/sub\/a\.txt\n\+\+\+ b\/sub\/a\.txt\n@@ /,
    );
    expect(await create?.needsApproval?.(['../outside/secret.txt', 'x'], f.ctx)).toBeUndefined();
  });

  it('overwrites atomically once approved', async () => {
    const writes: string[] = [];
    const tool = createCreateTool({
      writeAtomic: async (abs, data) => {
        writes.push(abs);
        await fs.writeFile(abs, data);
      },
    });
    const r = await tool.run(['sub/a.txt', 'replaced'], f.ctx);
    expect(text(r)).toBe('Overwrote sub/a.txt (8 B).');
    expect(writes).toEqual([path.join(f.ws, 'sub', 'a.txt')]);
    expect(await readWs('sub/a.txt')).toBe('replaced');
    // The real atomic writer leaves no temp files behind.
    expect(text(await f.call('create', 'sub/a.txt', 'again'))).toContain('Overwrote');
    expect((await fs.readdir(path.join(f.ws, 'sub'))).sort()).toEqual(['a.txt', 'deeplink']);
  });

  it('refuses a folder or the root as the target', async () => {
    expect(await f.call('create', 'sub', 'x')).toMatchObject({
      ok: false,
      error: { kind: 'exists' },
    });
    expect(await f.call('create', '.', 'x')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
  });
});

describe('edit', () => {
  beforeEach(async () => {
    await f.write('e.txt', 'alpha\nbeta\ngamma\nbeta\n');
  });

  it('replaces a unique match and reports the line', async () => {
    expect(text(await f.call('edit', 'e.txt', 'gamma', 'GAMMA'))).toBe(
      'Edited e.txt: replaced 1 occurrence at line 3.',
    );
    expect(await readWs('e.txt')).toBe('alpha\nbeta\nGAMMA\nbeta\n');
  });

  it('refuses a match found several times, naming the lines', async () => {
    const r = await f.call('edit', 'e.txt', 'beta', 'x');
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_args' } });
    if (!r.ok) expect(r.error.message).toContain('found 2 times in "e.txt" (lines 2, 4)');
    expect(text(await f.call('edit', 'e.txt', 'beta\ngamma', 'b\ng'))).toContain('line 2');
  });

  it('refuses a missing match with a hint to copy the exact text', async () => {
    const r = await f.call('edit', 'e.txt', 'delta', 'x');
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'not_found', message: expect.stringContaining('copy the exact text') },
    });
    expect(await f.call('edit', 'e.txt', '', 'x')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
  });

  it('inserts the new text literally ($ patterns are not special)', async () => {
    await f.call('edit', 'e.txt', 'alpha', "$& $' $$");
    expect(await readWs('e.txt')).toBe("$& $' $$\nbeta\ngamma\nbeta\n");
  });

  it('matches LF text against a CRLF file and keeps CRLF', async () => {
    await f.write('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    expect(text(await f.call('edit', 'crlf.txt', 'one\ntwo', 'uno\ndos'))).toContain('Edited');
    expect(await readWs('crlf.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('keeps a UTF-8 BOM', async () => {
    await f.write(
      'bom.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi there')]),
    );
    await f.call('edit', 'bom.txt', 'there', 'you');
    expect([...(await fs.readFile(path.join(f.ws, 'bom.txt')))].slice(0, 3)).toEqual([
      0xef, 0xbb, 0xbf,
    ]);
    expect(await readWs('bom.txt')).toBe('\uFEFFhi you');
  });

  it('refuses binary and GBK files rather than corrupting them', async () => {
    await f.write('b.bin', Buffer.from([0, 1, 2]));
    expect(await f.call('edit', 'b.bin', 'a', 'b')).toMatchObject({
      ok: false,
      error: { kind: 'binary' },
    });
    await f.write('g.txt', GBK_HELLO);
    expect(await f.call('edit', 'g.txt', '你好', '再见')).toMatchObject({
      ok: false,
      error: { kind: 'unsupported', message: expect.stringContaining('GBK') },
    });
  });
});

describe('copy and move', () => {
  it('copies a file and a folder, making parents', async () => {
    expect(text(await f.call('copy', 'sub/a.txt', 'x/y/a2.txt'))).toBe(
      'Copied sub/a.txt to x/y/a2.txt.',
    );
    expect(await readWs('x/y/a2.txt')).toBe('hello from a\n');
    await f.call('copy', 'sub', 'sub-copy');
    expect(await readWs('sub-copy/a.txt')).toBe('hello from a\n');
    expect((await fs.lstat(path.join(f.ws, 'sub-copy', 'deeplink'))).isSymbolicLink()).toBe(true);
  });

  it.each(['copy', 'move'])(
    '%s refuses an existing destination and suggests a path',
    async (tool) => {
      await f.write('b.txt', 'bee');
      const r = await f.call(tool, 'b.txt', 'sub/a.txt');
      expect(r).toMatchObject({ ok: false, error: { kind: 'exists' } });
      const into = await f.call(tool, 'b.txt', 'sub');
      if (!into.ok) expect(into.error.message).toContain('use "sub/b.txt"');
      expect(await readWs('sub/a.txt')).toBe('hello from a\n');
      expect(await readWs('b.txt')).toBe('bee');
    },
  );

  it.each(['copy', 'move'])(
    '%s refuses the root, the trash, a missing source and itself',
    async (tool) => {
      expect(await f.call(tool, '.', 'x')).toMatchObject({
        ok: false,
        error: { kind: 'invalid_args' },
      });
      expect(await f.call(tool, 'missing', 'x')).toMatchObject({
        ok: false,
        error: { kind: 'not_found' },
      });
      expect(await f.call(tool, 'sub', 'sub/inner')).toMatchObject({
        ok: false,
        error: { kind: 'invalid_args' },
      });
      expect(await f.call(tool, 'sub/a.txt', '.cogito-trash/a.txt')).toMatchObject({
        ok: false,
        error: { kind: 'invalid_args' },
      });
    },
  );

  it('moves and renames', async () => {
    expect(text(await f.call('move', 'sub/a.txt', 'new/place/b.txt'))).toBe(
      'Moved sub/a.txt to new/place/b.txt.',
    );
    expect(await exists('sub/a.txt')).toBe(false);
    expect(await readWs('new/place/b.txt')).toBe('hello from a\n');
  });
});

describe('mkdir', () => {
  it('makes nested folders and accepts an existing one', async () => {
    expect(text(await f.call('mkdir', 'p/q/r'))).toBe('Made folder p/q/r/.');
    expect((await fs.stat(path.join(f.ws, 'p/q/r'))).isDirectory()).toBe(true);
    expect(text(await f.call('mkdir', 'p/q'))).toBe('p/q/ already exists.');
  });

  it('refuses when a file is in the way', async () => {
    expect(await f.call('mkdir', 'sub/a.txt')).toMatchObject({
      ok: false,
      error: { kind: 'exists' },
    });
    expect(await f.call('mkdir', 'sub/a.txt/deeper')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
  });
});

describe('delete', () => {
  const at = new Date(2024, 4, 1, 10, 15, 0, 123);

  it('moves files and folders into the trash with a timestamp', async () => {
    const g = await makeFixture({ now: () => at });
    try {
      expect(text(await g.call('delete', 'sub/a.txt'))).toBe(
        'Deleted sub/a.txt (moved to .cogito-trash/20240501-101500-123-a.txt; move it back to restore).',
      );
      await g.write('x/a.txt', 'second');
      expect(text(await g.call('delete', 'x/a.txt'))).toContain(
        '.cogito-trash/20240501-101500-123-a.txt-2',
      );
      expect(text(await g.call('delete', 'x'))).toContain('-x;');
      const trash = path.join(g.ws, '.cogito-trash');
      expect((await fs.readdir(trash)).sort()).toEqual([
        '20240501-101500-123-a.txt',
        '20240501-101500-123-a.txt-2',
        '20240501-101500-123-x',
      ]);
      expect(await fs.readFile(path.join(trash, '20240501-101500-123-a.txt'), 'utf8')).toBe(
        'hello from a\n',
      );
    } finally {
      await g.cleanup();
    }
  });

  it('deletes a symlink that stays inside as the link, not its target', async () => {
    await f.call('delete', 'inner-link');
    expect(await exists('inner-link')).toBe(false);
    expect(await readWs('sub/a.txt')).toBe('hello from a\n');
  });

  it('refuses the root, the trash and anything in it', async () => {
    await f.call('delete', 'sub/a.txt');
    const [trashed] = await fs.readdir(path.join(f.ws, '.cogito-trash'));
    for (const p of ['.', './', f.ws, '.cogito-trash', `.cogito-trash/${trashed}`]) {
      expect(await f.call('delete', p)).toMatchObject({
        ok: false,
        error: { kind: 'invalid_args' },
      });
    }
    expect(await f.call('delete', 'missing')).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
  });
});
