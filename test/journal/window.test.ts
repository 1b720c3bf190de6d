/**
 * The journal keeps only its newest changes in memory; the file keeps them all, and /undo and
 * /changes read older ones back from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undoChanges } from '../../src/journal/undo.js';
import { CHANGE_COMMANDS } from '../../src/commands/changes.js';
import type { CommandCall } from '../../src/commands/table.js';
import { journalFixture, LIMITS, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

const WINDOW = 4;
const CHANGES = 12;
const exists = (rel: string): boolean => fs.existsSync(path.join(fx.ws, rel));

/** Creates `file-<i>.txt` in turn `turn-<i>` for i below `n`. */
async function createFiles(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await fx.call('create', [`file-${i}.txt`, `${i}\n`], `turn-${i}`);
}

/** What /changes says, through the command itself. */
async function changesCommand(): Promise<string> {
  const said: string[] = [];
  const changes = CHANGE_COMMANDS.find((c) => c.name === 'changes')!;
  const ctx = { journal: () => fx.journal, say: (s: string) => said.push(s), lang: 'en' };
  await changes.run({ ctx, args: '' } as unknown as CommandCall);
  return said.join('\n');
}

describe('the journal in memory', () => {
  it('holds at most its window, while the file and the counts cover every change', async () => {
    fx = await journalFixture(undefined, LIMITS, WINDOW);
    await createFiles(CHANGES);
    expect(fx.journal.inMemory()).toBeLessThanOrEqual(WINDOW);
    expect(fx.journal.complete()).toBe(false);
    expect(fx.journal.all().map((e) => e.paths[0]!.path)).toEqual(
      Array.from({ length: CHANGES }, (_, i) => `file-${i}.txt`),
    );
    const lines = fs.readFileSync(fx.journal.file, 'utf8').trim().split('\n');
    expect(lines.filter((l) => l.includes('"t":"begin"'))).toHaveLength(CHANGES);
    expect(fx.journal.filesChanged()).toBe(CHANGES);
    expect([...fx.journal.changedPaths().keys()]).toContain('file-0.txt');
    // A restart reads the whole file and keeps the same window.
    fx.reopen();
    expect(fx.journal.inMemory()).toBeLessThanOrEqual(WINDOW);
    expect(fx.journal.filesChanged()).toBe(CHANGES);
  });

  it('/undo of a path whose change left memory undoes that change', async () => {
    fx = await journalFixture(undefined, LIMITS, WINDOW);
    await fx.call('create', ['old.txt', 'old\n'], 'turn-old');
    await createFiles(CHANGES);
    expect(fx.journal.entries().some((e) => e.paths[0]?.path === 'old.txt')).toBe(false);

    const out = await undoChanges(
      fx.journal,
      fx.workspace,
      { kind: 'path', input: 'old.txt' },
      false,
    );
    expect(out).toMatchObject({ kind: 'undone', entries: [{ paths: [{ path: 'old.txt' }] }] });
    expect(exists('old.txt')).toBe(false);
    expect(exists('file-0.txt')).toBe(true);
    expect(fx.journal.filesChanged()).toBe(CHANGES);
    expect(fx.journal.changedPaths().has('old.txt')).toBe(false);
    // The undo is in the file too: after a restart the old change stays undone.
    fx.reopen();
    expect(fx.journal.all().find((e) => e.paths[0]?.path === 'old.txt')?.state).toBe('undone');
  });

  it('/undo N reaches turns beyond memory, newest first; /changes lists every change', async () => {
    fx = await journalFixture(undefined, LIMITS, WINDOW);
    await createFiles(CHANGES);
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'turns', count: 7 }, false);
    expect(out.kind).toBe('undone');
    for (let i = 0; i < CHANGES; i++) expect(exists(`file-${i}.txt`)).toBe(i < CHANGES - 7);
    expect(fx.journal.filesChanged()).toBe(CHANGES - 7);

    const listed = await changesCommand();
    expect(listed).toContain(`${CHANGES - 7} files changed`);
    for (let i = 0; i < CHANGES; i++) expect(listed).toContain(`file-${i}.txt`);
    expect(fx.journal.inMemory()).toBeLessThanOrEqual(WINDOW);

    const rest = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    expect(rest.kind).toBe('undone');
    for (let i = 0; i < CHANGES; i++) expect(exists(`file-${i}.txt`)).toBe(false);
    expect(fx.journal.filesChanged()).toBe(0);
  });
});
