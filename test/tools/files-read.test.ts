import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './fixture.js';
import { GBK_HELLO, makeFixture, text } from './fixture.js';
import { READ_MAX_BYTES, READ_MAX_FILE_BYTES } from '../../src/tools/files/read.js';
import type { FileSystem } from '../../src/tools/files/index.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await f.cleanup();
});

describe('ls', () => {
  it('lists folders first, then names in order, with kind, size and ISO time', async () => {
    await f.write('b.txt', '12345');
    await f.write('A.md', 'x');
    await f.write('zdir/x', '');
    const out = text(await f.call('ls')).split('\n');
    expect(out[0]).toBe('./ (8 entries)');
    const names = out.slice(1).map((l) => l.replace(/^.*?\dZ\s+/, ''));
    expect(names.slice(0, 2)).toEqual(['sub/', 'zdir/']);
    expect(names.slice(2)).toEqual([
      'A.md',
      'b.txt',
      expect.stringMatching(/^dangling -> /),
      expect.stringMatching(/^inner-link -> sub$/),
      expect.stringMatching(/^linkdir -> \.\.\/outside$/),
      expect.stringMatching(/^linkfile -> /),
    ]);
    const b = out.find((l) => l.endsWith(' b.txt'));
    expect(b).toMatch(/^file\s+5 B\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\s+b\.txt$/);
    expect(out.find((l) => l.endsWith('sub/'))).toMatch(/^dir\s+-\s/);
    expect(out.find((l) => l.includes('linkdir'))).toMatch(/^link\s/);
  });

  it('caps the listing at 200 entries and counts the rest', async () => {
    await Promise.all(
      Array.from({ length: 230 }, (_, i) => f.write(`many/f${String(i).padStart(3, '0')}.txt`, '')),
    );
    const out = text(await f.call('ls', 'many')).split('\n');
    expect(out[0]).toBe('many/ (230 entries)');
    expect(out).toHaveLength(1 + 200 + 1);
    expect(out[200]).toContain('f199.txt');
    expect(out.at(-1)).toMatch(/^… 30 more/);
  });

  it('describes a single file, an empty folder, and a missing path', async () => {
    expect(text(await f.call('ls', 'sub/a.txt'))).toMatch(/^file\s+13 B .* sub\/a\.txt$/);
    await f.call('mkdir', 'empty');
    expect(text(await f.call('ls', 'empty'))).toBe('empty/ is empty.');
    expect(await f.call('ls', 'nope')).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });
});

describe('read', () => {
  const lines = (n: number): string =>
    Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  it('returns the whole small file under a header', async () => {
    await f.write('n.txt', 'one\ntwo\n');
    expect(text(await f.call('read', 'n.txt'))).toBe('n.txt · lines 1–2 of 2\none\ntwo');
  });

  it('reads a range with a 1-based offset and a limit, and says how to continue', async () => {
    await f.write('n.txt', lines(50));
    const out = text(await f.call('read', 'n.txt', 10, 3)).split('\n');
    expect(out).toEqual([
      'n.txt · lines 10–12 of 50',
      'line 10',
      'line 11',
      'line 12',
      '[showing lines 10–12 of 50; call read("n.txt", 13) for more]',
    ]);
  });

  it('caps at 2000 lines and tells how to read the rest', async () => {
    await f.write('big.txt', lines(5312));
    const out = text(await f.call('read', 'big.txt')).split('\n');
    expect(out).toHaveLength(1 + 2000 + 1);
    expect(out.at(-1)).toBe('[showing lines 1–2000 of 5312; call read("big.txt", 2001) for more]');
    const next = text(await f.call('read', 'big.txt', 2001)).split('\n');
    expect(next[1]).toBe('line 2001');
    const last = text(await f.call('read', 'big.txt', 5001));
    expect(last.endsWith('line 5312')).toBe(true);
  });

  it('caps by bytes too', async () => {
    const long = 'x'.repeat(1000);
    await f.write('wide.txt', Array.from({ length: 400 }, () => long).join('\n'));
    const out = text(await f.call('read', 'wide.txt')).split('\n');
    const shown = out.length - 2;
    expect(shown).toBe(Math.floor(READ_MAX_BYTES / 1001));
    expect(out.at(-1)).toContain(`call read("wide.txt", ${shown + 1}) for more`);
  });

  it('cuts a single enormous line instead of returning nothing', async () => {
    await f.write('min.js', 'y'.repeat(READ_MAX_BYTES * 2));
    const out = text(await f.call('read', 'min.js'));
    expect(out).toContain('[line 1 cut: it is 512.0 KB]');
    expect(out.length).toBeLessThan(READ_MAX_BYTES);
  });

  it('decodes GBK files and says so', async () => {
    await f.write('gbk.txt', Buffer.concat([GBK_HELLO, Buffer.from('\n')]));
    expect(text(await f.call('read', 'gbk.txt'))).toBe(
      'gbk.txt · lines 1–1 of 1 · decoded from GBK\n你好，世界',
    );
  });

  it('refuses binary files, naming size and type', async () => {
    await f.write(
      'tool',
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]), Buffer.alloc(2042)]),
    );
    expect(await f.call('read', 'tool')).toEqual({
      ok: false,
      error: {
        kind: 'binary',
        message:
          '"tool" is a binary file (ELF executable, 2.0 KB); read shows text and documents (PDF, Office, e-mail, e-books, images, archives…), not this kind.',
      },
    });
    await f.write('blob.bin', Buffer.from([1, 2, 0, 4]));
    expect(await f.call('read', 'blob.bin')).toMatchObject({
      ok: false,
      error: { kind: 'binary', message: expect.stringContaining('binary data, 4 B') },
    });
  });

  it('explains bad ranges, folders, empty files and missing files', async () => {
    await f.write('n.txt', lines(3));
    await f.write('empty.txt', '');
    const past = await f.call('read', 'n.txt', 9);
    expect(past).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args', message: expect.stringContaining('has 3 lines') },
    });
    expect(await f.call('read', 'n.txt', 0)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
    expect(await f.call('read', 'n.txt', 1, 1.5)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_args' },
    });
    expect(await f.call('read', 'sub')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('Use ls("sub")') },
    });
    expect(text(await f.call('read', 'empty.txt'))).toBe('empty.txt is empty.');
    expect(await f.call('read', 'missing.txt')).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
  });

  it('refuses files over the hard size limit before reading them', async () => {
    let reads = 0;
    const fs: FileSystem = {
      ...fsp,
      stat: (async (p: string) => {
        const st = await fsp.stat(p);
        return Object.assign(st, { size: READ_MAX_FILE_BYTES + 1 });
      }) as FileSystem['stat'],
      readFile: ((...args: Parameters<typeof fsp.readFile>) => {
        reads++;
        return fsp.readFile(...args);
      }) as FileSystem['readFile'],
    };
    const g = await makeFixture({ fs });
    try {
      const r = await g.call('read', path.join('sub', 'a.txt'));
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'too_large', message: expect.stringContaining('grep(') },
      });
      expect(reads).toBe(0);
    } finally {
      await g.cleanup();
    }
  });
});
