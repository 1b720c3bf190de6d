/**
 * The folder memory's rules on a real temp folder: caps with their messages, secrets refused,
 * the inbox, undo refusing after a hand edit, a damaged file kept aside.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderMemory } from '../../src/knowledge/folderMemory.js';
import { MEMORY_LIMITS } from '../../src/knowledge/memoryFile.js';
import { secretIn } from '../../src/knowledge/secretCheck.js';

describe('FolderMemory', () => {
  let data: string;
  let warnings: string[];
  const open = (): FolderMemory =>
    new FolderMemory({ dataDir: data, workspace: '/ws', warn: (m) => warnings.push(m) });
  beforeEach(() => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-memunit-'));
    warnings = [];
  });
  afterEach(() => fs.rmSync(data, { recursive: true, force: true }));

  it('applies in the user turn, proposes otherwise, and refuses past the entry cap', () => {
    const m = open();
    expect(m.remember('One', { apply: true, source: 'user turn' }).kind).toBe('applied');
    expect(m.remember('one', { apply: true, source: 'user turn' })).toMatchObject({
      kind: 'refused',
      message: 'Already remembered: one',
    });
    expect(m.remember('Two', { apply: false, source: 'autonomous' }).kind).toBe('inbox');
    expect(m.entries().map((e) => e.text)).toEqual(['One']);
    expect(m.accept(1)).toContain('Accepted into memory: Two');
    for (let i = 3; i <= MEMORY_LIMITS.maxEntries; i++)
      m.remember(`Fact ${i}`, { apply: true, source: 'user turn' });
    const full = m.remember('One too many', { apply: true, source: 'user turn' });
    expect(full).toMatchObject({ kind: 'refused' });
    expect(full.kind === 'refused' && full.message).toMatch(
      /memory is full \(50 entries\).*forget N/,
    );
    expect(m.remember('x'.repeat(301), { apply: true, source: 'user turn' })).toMatchObject({
      kind: 'refused',
    });
  });

  it('refuses secrets, including a configured key', () => {
    expect(secretIn('GITHUB_TOKEN=abcd1234efgh')).toBeDefined();
    expect(secretIn('my password is tr0ub4dor')).toBe('a password');
    expect(secretIn('密码是 123456')).toBe('a password');
    expect(secretIn('token xK9mQ2vL8pR4tY7wZ1aB3cD5')).toBeDefined();
    expect(secretIn('Summaries go in notes/')).toBeUndefined();
    const redact = (t: string): string => t.replace('plainkey99', '[redacted secret]');
    expect(secretIn('use plainkey99 there', redact)).toBe('a configured API key');
  });

  it('undo takes back the last change, but never over a hand edit', () => {
    const m = open();
    m.remember('Keep A', { apply: true, source: 'user turn' });
    m.remember('Keep B', { apply: true, source: 'user turn' });
    expect(m.forget(1)).toContain('Forgotten: Keep A');
    expect(m.undo()).toContain('forgot "Keep A"');
    expect(m.entries().map((e) => e.text)).toEqual(['Keep A', 'Keep B']);
    fs.appendFileSync(m.paths.memory, '- my own line\n');
    expect(m.undo()).toMatch(/Not undone: the memory was changed since/);
    expect(m.entries().map((e) => e.text)).toEqual(['Keep A', 'Keep B', 'my own line']);
  });

  it('a damaged file is kept aside with a warning, and the memory starts empty', () => {
    const m = open();
    fs.mkdirSync(path.dirname(m.paths.memory), { recursive: true });
    fs.writeFileSync(m.paths.memory, Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    const again = open();
    expect(again.entries()).toEqual([]);
    expect(warnings.join('\n')).toMatch(/damaged \(not valid UTF-8.*kept as .*corrupt-/);
    expect(again.remember('Fresh', { apply: true, source: 'user turn' }).kind).toBe('applied');
  });

  describe('the memory file damaged (the attack table: none loses what was readable)', () => {
    /** Three facts on disk, and the file's bytes. */
    const seeded = (): { m: FolderMemory; bytes: Buffer } => {
      const m = open();
      for (const f of ['Alpha fact', 'Beta fact', 'Gamma fact'])
        m.remember(f, { apply: true, source: 'user turn' });
      return { m, bytes: fs.readFileSync(m.paths.memory) };
    };
    const asides = (m: FolderMemory): string[] =>
      fs
        .readdirSync(path.dirname(m.paths.memory))
        .filter((n) => n.includes('.corrupt-'))
        .map((n) => path.join(path.dirname(m.paths.memory), n));

    it('junk bytes inside one line: the other facts stay, the original is kept once and named', () => {
      const { m, bytes } = seeded();
      const at = bytes.indexOf('Beta');
      const damaged = Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([0xff, 0xfe]),
        bytes.subarray(at),
      ]);
      fs.writeFileSync(m.paths.memory, damaged);
      const again = open();
      expect(again.entries().map((e) => e.text)).toEqual(['Alpha fact', 'Gamma fact']);
      expect(again.entries().map((e) => e.text)).toEqual(['Alpha fact', 'Gamma fact']);
      const kept = asides(again);
      expect(kept).toHaveLength(1);
      expect(fs.readFileSync(kept[0]!)).toEqual(damaged);
      expect(warnings.join('\n')).toContain(kept[0]!);
      expect(again.remember('Delta fact', { apply: true, source: 'user turn' }).kind).toBe(
        'applied',
      );
      expect(
        open()
          .entries()
          .map((e) => e.text),
      ).toEqual(['Alpha fact', 'Gamma fact', 'Delta fact']);
    });

    it('cut by 4 bytes: still text, every whole fact and the cut one as far as it goes', () => {
      const { m, bytes } = seeded();
      fs.writeFileSync(m.paths.memory, bytes.subarray(0, bytes.length - 4));
      expect(
        open()
          .entries()
          .map((e) => e.text),
      ).toEqual(['Alpha fact', 'Beta fact', 'Gamma f']);
      expect(warnings).toEqual([]);
    });

    it('a folder in its place: moved aside whole and named; new facts are kept again', () => {
      const { m } = seeded();
      fs.rmSync(m.paths.memory);
      fs.mkdirSync(m.paths.memory);
      fs.writeFileSync(path.join(m.paths.memory, 'inside.txt'), 'kept');
      const again = open();
      expect(again.entries()).toEqual([]);
      const kept = asides(again);
      expect(kept).toHaveLength(1);
      expect(fs.readFileSync(path.join(kept[0]!, 'inside.txt'), 'utf8')).toBe('kept');
      expect(warnings.join('\n')).toContain(kept[0]!);
      expect(again.remember('After', { apply: true, source: 'user turn' }).kind).toBe('applied');
      expect(
        open()
          .entries()
          .map((e) => e.text),
      ).toEqual(['After']);
    });

    it('deleted: an empty memory, no warning', () => {
      const { m } = seeded();
      fs.rmSync(m.paths.memory);
      expect(open().entries()).toEqual([]);
      expect(warnings).toEqual([]);
    });
  });
});
