/**
 * Attacks on the backup cap: a model aiming `create` or `edit` at a big folder (or at
 * `.git`) used to have the whole tree copied into the backup store before the tool refused
 * the target, far past `undo.maxBytes`. Now a folder target is refused before anything is
 * read, the change in progress counts against the cap, and a file that cannot be backed up
 * within the caps is asked about or refused, with the reason said.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalNeed, ToolArg } from '../../src/tools/types.js';
import { journalFixture, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

const MB = 1024 * 1024;

/** Everything in the backup store folder: files and bytes, counted on disk. */
function storeOnDisk(): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        files++;
        bytes += fs.statSync(p).size;
      }
    }
  };
  if (fs.existsSync(fx.journal.blobs.dir)) walk(fx.journal.blobs.dir);
  return { files, bytes };
}

/** 40 files of 1 MB each, every one under the per-file cap. */
function seedBigFolder(ws: string): void {
  fs.mkdirSync(path.join(ws, 'big'));
  for (let i = 0; i < 40; i++)
    fs.writeFileSync(path.join(ws, 'big', `f${i}.bin`), Buffer.alloc(MB, i));
}

function seedGit(ws: string): void {
  fs.mkdirSync(path.join(ws, '.git', 'objects', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  for (let i = 0; i < 20; i++) {
    fs.writeFileSync(path.join(ws, '.git', 'objects', 'ab', `o${i}`), Buffer.alloc(64 * 1024, i));
  }
}

const ask = async (name: string, args: ToolArg[]): Promise<string | ApprovalNeed | undefined> =>
  fx.registry.get(name)!.needsApproval!(args, {
    workspace: fx.workspace,
    signal: new AbortController().signal,
  });

describe('backups are bounded and honest', () => {
  it('create and edit aimed at a 40 MB folder store nothing and are refused', async () => {
    fx = await journalFixture(seedBigFolder, { maxBytes: 10 * MB, maxFileBytes: 5 * MB });
    for (const [name, args] of [
      ['create', ['big', 'payload']],
      ['edit', ['big', 'a', 'b']],
    ] as const) {
      expect(await ask(name, [...args])).toBe(undefined);
      const r = await fx.call(name, [...args]);
      expect(r).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/"big" is a folder/) },
      });
      expect(storeOnDisk()).toEqual({ files: 0, bytes: 0 });
      expect(fx.journal.blobs.bytes).toBe(0);
      expect(fx.journal.entries()).toEqual([]);
    }
    expect(fs.readdirSync(path.join(fx.ws, 'big'))).toHaveLength(40);
  });

  it.each([
    ['edit', ['.git', 'a', 'b']],
    ['create', ['.git', 'x']],
    ['edit', ['.git/config', '[core]', '[core]\n\tfsmonitor = evil']],
  ] as const)('%s(%j…) reads and stores nothing from .git', async (name, args) => {
    fx = await journalFixture(seedGit);
    const r = await fx.call(name, [...args]);
    expect(r.ok).toBe(false);
    expect(storeOnDisk()).toEqual({ files: 0, bytes: 0 });
    expect(fx.journal.entries()).toEqual([]);
  });

  it('a file larger than undo.maxBytes is asked about, refused unasked, and never stored', async () => {
    fx = await journalFixture(
      (ws) => fs.writeFileSync(path.join(ws, 'huge.log'), Buffer.alloc(12 * MB, 'x')),
      { maxBytes: 10 * MB, maxFileBytes: 50 * MB },
    );
    // Unasked (a caller that skipped the approval step): refused, nothing changed or stored.
    const unasked = await fx.call('create', ['huge.log', 'small']);
    expect(unasked).toMatchObject({
      ok: false,
      error: { kind: 'too_large', message: expect.stringMatching(/undo\.maxBytes.*did not run/) },
    });
    expect(fs.statSync(path.join(fx.ws, 'huge.log')).size).toBe(12 * MB);
    // Asked: the reason names the cap; once approved, it runs with no backup, cap intact.
    const args: ToolArg[] = ['huge.log', 'small'];
    // An overwrite's need is the card (its reason and the diff); the journal adds its reason.
    const need = await ask('create', args);
    const reason = typeof need === 'string' ? need : need?.reason;
    expect(reason).toMatch(/"huge\.log" is 12\.0 MB, larger than undo\.maxBytes \(10\.0 MB\)/);
    const r = await fx.registry.run('create', args, {
      workspace: fx.workspace,
      signal: new AbortController().signal,
    });
    expect(r.result.ok).toBe(true);
    expect(fs.readFileSync(path.join(fx.ws, 'huge.log'), 'utf8')).toBe('small');
    expect(storeOnDisk().bytes).toBe(0);
    expect(fx.journal.entries().at(-1)?.paths[0]).toMatchObject({
      path: 'huge.log',
      backup: false,
    });
  });

  it('a change larger than the room left removes older backups first and says so; the cap holds', async () => {
    fx = await journalFixture(
      (ws) => {
        fs.writeFileSync(path.join(ws, 'a.bin'), Buffer.alloc(4 * MB, 'a'));
        fs.writeFileSync(path.join(ws, 'b.bin'), Buffer.alloc(4 * MB, 'b'));
        fs.writeFileSync(path.join(ws, 'c.bin'), Buffer.alloc(6 * MB, 'c'));
      },
      { maxBytes: 10 * MB, maxFileBytes: 50 * MB },
    );
    expect((await fx.call('create', ['a.bin', 'A'])).ok).toBe(true);
    expect((await fx.call('create', ['b.bin', 'B'])).ok).toBe(true);
    expect(storeOnDisk().bytes).toBe(8 * MB);
    const r = await fx.call('create', ['c.bin', 'C']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(String(r.data)).toMatch(
      /1 older backup\(s\) were removed: those changes can no longer be undone/,
    );
    expect(r.display).toMatch(/older backup/);
    expect(storeOnDisk().bytes).toBe(10 * MB);
    expect(storeOnDisk().bytes).toBeLessThanOrEqual(10 * MB);
    expect(fx.journal.evicted.size).toBe(1);
  });
});
