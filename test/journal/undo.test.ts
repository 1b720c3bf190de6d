/** /undo's refusals and choices: user edits, --force, one path, N turns, the size cap. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undoChanges } from '../../src/journal/undo.js';
import { journalFixture, seedMixed, treeOf, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

const read = (rel: string): string => fs.readFileSync(path.join(fx.ws, rel), 'utf8');

describe('/undo', () => {
  it('refuses, naming the file and touching nothing, when the user edited it since; --force restores', async () => {
    fx = await journalFixture(seedMixed);
    await fx.call('edit', ['notes.txt', 'first line', 'agent line']);
    await fx.call('create', ['plan.md', 'the plan\n']);
    // The user changes the agent's file by hand afterwards.
    fs.writeFileSync(path.join(fx.ws, 'notes.txt'), 'the user wrote this\n');
    const refused = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    expect(refused).toEqual({
      kind: 'refused',
      conflicts: [{ path: 'notes.txt', what: 'modified' }],
      noBackup: [],
    });
    // Nothing touched: neither the user's edit nor the agent's other file.
    expect(read('notes.txt')).toBe('the user wrote this\n');
    expect(read('plan.md')).toBe('the plan\n');

    const forced = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, true);
    expect(forced.kind).toBe('undone');
    expect(read('notes.txt')).toBe('first line\nsecond line\n');
    expect(fs.existsSync(path.join(fx.ws, 'plan.md'))).toBe(false);
  });

  it('refuses when the user put a file into a folder the agent made', async () => {
    fx = await journalFixture();
    await fx.call('mkdir', ['made/deep']);
    fs.writeFileSync(path.join(fx.ws, 'made', 'mine.txt'), 'mine');
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    expect(out).toMatchObject({
      kind: 'refused',
      conflicts: [{ path: 'made/mine.txt', what: 'added' }],
    });
    expect(read('made/mine.txt')).toBe('mine');
  });

  it('undoes the last turn only, then the one before; a path undoes its latest change', async () => {
    fx = await journalFixture(seedMixed);
    await fx.call('create', ['one.txt', '1'], 'turn-a');
    await fx.call('create', ['two.txt', '2'], 'turn-b');
    await fx.call('edit', ['two.txt', '2', 'II'], 'turn-c');
    await fx.call('move', ['run.sh', 'bin/run.sh'], 'turn-c');

    const byPath = await undoChanges(
      fx.journal,
      fx.workspace,
      { kind: 'path', input: 'two.txt' },
      false,
    );
    expect(byPath.kind).toBe('undone');
    expect(read('two.txt')).toBe('2');
    expect(read('bin/run.sh')).toContain('echo hi'); // the rest of turn-c stays

    await undoChanges(fx.journal, fx.workspace, { kind: 'turns', count: 1 }, false);
    expect(fs.existsSync(path.join(fx.ws, 'bin'))).toBe(false);
    expect(fs.statSync(path.join(fx.ws, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(read('two.txt')).toBe('2');

    await undoChanges(fx.journal, fx.workspace, { kind: 'turns', count: 2 }, false);
    expect(fs.existsSync(path.join(fx.ws, 'one.txt'))).toBe(false);
    expect(fs.existsSync(path.join(fx.ws, 'two.txt'))).toBe(false);
    expect(await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false)).toEqual({
      kind: 'nothing',
    });
  });

  it('brings a deleted folder back from the trash', async () => {
    fx = await journalFixture(seedMixed);
    const before = await treeOf(fx.ws);
    const r = await fx.call('delete', ['docs']);
    expect(r.ok).toBe(true);
    expect(fs.readdirSync(path.join(fx.ws, '.cogito-trash'))).toHaveLength(1);
    await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    expect(await treeOf(fx.ws)).toEqual(before);
    expect(fs.existsSync(path.join(fx.ws, '.cogito-trash'))).toBe(false);
  });

  it('names an unknown path instead of guessing', async () => {
    fx = await journalFixture();
    const out = await undoChanges(
      fx.journal,
      fx.workspace,
      { kind: 'path', input: '../outside' },
      false,
    );
    expect(out.kind).toBe('bad_path');
  });

  it('keeps one copy per distinct content, evicts the oldest beyond undo.maxBytes and then refuses', async () => {
    fx = await journalFixture(() => {}, { maxBytes: 250, maxFileBytes: 1000 });
    await fx.call('create', ['f.txt', 'a'.repeat(100)]);
    for (let i = 0; i < 6; i++) {
      const from = fs.readFileSync(path.join(fx.ws, 'f.txt'), 'utf8');
      await fx.call('create', ['f.txt', (i % 2 === 0 ? 'b' : 'a').repeat(100)]);
      expect(from.length).toBe(100);
    }
    // Two distinct contents, so two blobs however often the file flips between them.
    expect(fx.journal.blobs.bytes).toBe(200);
    await fx.call('create', ['f.txt', 'c'.repeat(100)]);
    await fx.call('create', ['f.txt', 'd'.repeat(100)]);
    expect(fx.journal.blobs.bytes).toBeLessThanOrEqual(250);
    expect(fx.journal.evicted.size).toBeGreaterThan(0);
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    expect(out).toMatchObject({ kind: 'refused', noBackup: expect.arrayContaining(['f.txt']) });
  });

  it('asks before changing a file too large to back up', async () => {
    fx = await journalFixture(
      (ws) => fs.writeFileSync(path.join(ws, 'big.log'), 'x'.repeat(2000)),
      { maxBytes: 10_000, maxFileBytes: 1000 },
    );
    const tool = fx.registry.get('create')!;
    const signal = new AbortController().signal;
    const reason = await tool.needsApproval!(['big.log', 'small'], {
      workspace: fx.workspace,
      signal,
    });
    // The card keeps the tool's diff; the journal's reason is added to the tool's own.
    expect(reason).toMatchObject({ reason: expect.stringMatching(/undo\.maxFileBytes/) });
    expect(reason).toMatchObject({ detailKind: 'diff' });
    const fresh = await tool.needsApproval!(['new.log', 'small'], {
      workspace: fx.workspace,
      signal,
    });
    expect(typeof fresh === 'object' ? fresh.reason : fresh).toBe(undefined);
  });
});
