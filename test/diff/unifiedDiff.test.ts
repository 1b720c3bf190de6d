/**
 * The one diff module (src/diff/unifiedDiff.ts) and the file tools that use it: an overwrite
 * or an edit carries a unified diff against the file as it was (for the tool detail), and
 * the approval card's detail is the same diff before the change. CJK lines included.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIFF_MAX_BYTES, diffLineKind, unifiedDiff } from '../../src/diff/unifiedDiff.js';
import type { ToolResult } from '../../src/tools/types.js';
import { makeFixture, type Fixture } from '../tools/fixture.js';

const diffOf = (r: ToolResult): string | undefined => (r.ok ? r.diff : undefined);

describe('unifiedDiff', () => {
  it('writes the file names, hunk headers and marked lines, CJK kept whole', () => {
    const r = unifiedDiff(
      '笔记.md',
      '# 京都\n第一天：金阁寺\n第二天：岚山\n',
      '# 京都\n第一天：金阁寺\n第二天：伏见稻荷\n',
    );
    expect(r).toEqual({
      ok: true,
      added: 1,
      removed: 1,
      whole: false,
      text: [
        '--- a/笔记.md',
        '+++ b/笔记.md',
        '@@ -1,3 +1,3 @@',
        ' # 京都',
        ' 第一天：金阁寺',
        '-第二天：岚山',
        '+第二天：伏见稻荷',
      ].join('\n'),
    });
  });

  it('keeps three lines of context and splits far-apart changes into hunks', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'LINE 2\n').replace('line 28\n', 'LINE 28\n');
    const r = unifiedDiff('a.txt', before, after);
    if (!r.ok) throw new Error(r.reason);
    expect(r.text.split('\n').filter((l) => l.startsWith('@@'))).toEqual([
      '@@ -1,5 +1,5 @@',
      '@@ -25,6 +25,6 @@',
    ]);
  });

  it('says plainly when there is nothing to change, or when it will not diff', () => {
    const same = unifiedDiff('a.txt', 'x\n', 'x\n');
    expect(same.ok && same.text).toContain('(no change');
    const big = unifiedDiff('a.txt', 'x'.repeat(DIFF_MAX_BYTES + 1), 'y');
    expect(big).toEqual({ ok: false, reason: expect.stringMatching(/too large/) });
    // Unrelated texts: no line matching (it would take seconds), one hunk replacing all.
    const lines = (p: string): string =>
      Array.from({ length: 6_000 }, (_, i) => `${p}${i}`).join('\n');
    const apart = unifiedDiff('a.txt', lines('a'), lines('b'));
    if (!apart.ok) throw new Error(apart.reason);
    expect(apart).toMatchObject({ whole: true, added: 6_000, removed: 6_000 });
    const rows = apart.text.split('\n');
    expect(rows.slice(2, 4)).toEqual([
      '(too different to match line by line: every old line is removed, every new line added)',
      '@@ -1,6000 +1,6000 @@',
    ]);
    expect(rows[4]).toBe('-a0');
    expect(rows.at(-1)).toBe('+b5999');
  });

  it('classifies lines for colour: a removed line that looks like a header is still removed', () => {
    expect(diffLineKind('--- a/x', 0)).toBe('file');
    expect(diffLineKind('--- not a header', 5)).toBe('removed');
    expect(diffLineKind('@@ -1 +1 @@', 2)).toBe('hunk');
    expect(diffLineKind(' same', 3)).toBe('context');
    expect(diffLineKind('\\ No newline at end of file', 4)).toBe('note');
  });
});

describe('the file tools carry the diff of what they changed', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await makeFixture();
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('an edit: the diff against the file as it was, CJK lines included', async () => {
    await f.write('日记.txt', '今天\n下雨\n明天\n');
    const r = await f.call('edit', '日记.txt', '下雨', '晴天');
    expect(diffOf(r)).toBe(
      [
        '--- a/日记.txt',
        '+++ b/日记.txt',
        '@@ -1,3 +1,3 @@',
        ' 今天',
        '-下雨',
        '+晴天',
        ' 明天',
      ].join('\n'),
    );
  });

  it('an overwrite: the diff of the old content against the new; a new file: none', async () => {
    await f.write('a.txt', 'one\ntwo\n');
    expect(diffOf(await f.call('create', 'a.txt', 'one\n2\n'))).toContain('-two\n+2');
    expect(diffOf(await f.call('create', 'b.txt', 'new\n'))).toBeUndefined();
  });

  it('the card of an edit shows the same diff before the change', async () => {
    await f.write('e.txt', 'alpha\nbeta\n');
    const need = await f.registry.get('edit')!.needsApproval!(['e.txt', 'beta', 'BETA'], f.ctx);
    expect(need).toEqual({
      detail: '--- a/e.txt\n+++ b/e.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA',
      detailKind: 'diff',
    });
    expect(await fs.readFile(path.join(f.ws, 'e.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it('a binary file is not diffed: the card says why and shows the new content', async () => {
    await fs.writeFile(path.join(f.ws, 'bin.dat'), Buffer.from([0, 1, 2, 3, 0, 0]));
    const need = await f.registry.get('create')!.needsApproval!(['bin.dat', 'text\n'], f.ctx);
    expect(need).toMatchObject({
      detailKind: 'text',
      detail: expect.stringMatching(/^No diff: the file is binary/),
    });
  });
});
