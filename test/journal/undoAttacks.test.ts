/**
 * Attacks on /undo: the journal's paths are resolved for write like a tool's write, and
 * reached without following a symlink planted since the change. A hostile repository holds a
 * symlink that, once the model moves it into place, turns a journaled path into `.git/…`;
 * the /undo hint the tool log shows must not then write the model's payload into
 * `.git/config` (which the next `git status` would run).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undoChanges } from '../../src/journal/undo.js';
import { journalFixture, type JournalFixture } from './fixture.js';

let fx: JournalFixture;
afterEach(() => fx.cleanup());

const PAYLOAD = '[core]\n\tfsmonitor = "touch pwned; false"\n';

/** A checkout with a `.git` folder and a folder holding a symlink whose target is `.git`. */
function seedRepo(withConfig: boolean) {
  return (ws: string): void => {
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    if (withConfig) fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
    fs.mkdirSync(path.join(ws, 'pack'));
    // Inside `pack` it points at nothing; moved to the top it points at the repository.
    fs.symlinkSync('.git', path.join(ws, 'pack', 'x'));
  };
}

/**
 * The model's steps: file tools through the real journaled registry, then one shell command
 * (a real `mv` process) that moves the link out of its folder. Returns the first move's hint.
 */
async function plantThroughModel(): Promise<string> {
  expect((await fx.call('mkdir', ['x'], 't0')).ok).toBe(true);
  expect((await fx.call('create', ['x/config', PAYLOAD], 't1')).ok).toBe(true);
  const moved = await fx.call('move', ['x/config', 'stash/config'], 't2');
  expect(moved.ok).toBe(true);
  expect((await fx.call('delete', ['x'], 't3')).ok).toBe(true);
  // "A folder holding a symlink": moving the link out of it re-aims it at `.git`.
  execFileSync('mv', ['pack/x', 'x'], { cwd: fx.ws });
  expect(fs.realpathSync(path.join(fx.ws, 'x'))).toBe(fs.realpathSync(path.join(fx.ws, '.git')));
  return moved.ok ? moved.undo! : '';
}

describe('/undo obeys the write resolver', () => {
  it('refuses to put a moved file back through a symlink into .git (the hint, then --force)', async () => {
    fx = await journalFixture(seedRepo(false));
    const hint = await plantThroughModel();
    expect(hint).toBe('/undo stash/config');
    const input = hint.replace('/undo ', '');
    // The plan reads the path as undo will reach it: the link on it is reported up front.
    const planned = await undoChanges(fx.journal, fx.workspace, { kind: 'path', input }, false);
    expect(planned).toMatchObject({ kind: 'refused', conflicts: [{ path: 'x/config' }] });
    expect(fs.existsSync(path.join(fx.ws, '.git', 'config'))).toBe(false);
    // Forced, the write itself is refused by the resolver.
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'path', input }, true);
    expect(fs.existsSync(path.join(fx.ws, '.git', 'config'))).toBe(false);
    expect(fs.readFileSync(path.join(fx.ws, 'stash', 'config'), 'utf8')).toBe(PAYLOAD);
    expect(out.kind).toBe('undone');
    if (out.kind !== 'undone') return;
    expect(out.problems.join('\n')).toMatch(/"x\/config".*(\.git|version control)/);
    // Not done, so not marked done: /changes still lists the move.
    expect(out.entries).toEqual([]);
    expect(fx.journal.entries().find((e) => e.tool === 'move')?.state).toBe('done');
  });

  it('refuses it with --force too, and leaves .git/config as it was', async () => {
    fx = await journalFixture(seedRepo(true));
    const config = fs.readFileSync(path.join(fx.ws, '.git', 'config'), 'utf8');
    const hint = await plantThroughModel();
    const input = hint.replace('/undo ', '');
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'path', input }, true);
    expect(fs.readFileSync(path.join(fx.ws, '.git', 'config'), 'utf8')).toBe(config);
    expect(out.kind === 'undone' && out.problems.length > 0).toBe(true);
  });

  it('refuses it when the model moved a whole folder holding the link with the move tool', async () => {
    fx = await journalFixture((ws) => {
      fs.mkdirSync(path.join(ws, '.git'));
      fs.writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      fs.mkdirSync(path.join(ws, 'pack'));
      fs.symlinkSync('../.git', path.join(ws, 'pack', 'x'));
    });
    expect((await fx.call('mkdir', ['d/x'], 't0')).ok).toBe(true);
    expect((await fx.call('create', ['d/x/config', PAYLOAD], 't1')).ok).toBe(true);
    const moved = await fx.call('move', ['d/x/config', 'stash/config'], 't2');
    expect((await fx.call('delete', ['d'], 't3')).ok).toBe(true);
    expect((await fx.call('move', ['pack', 'd'], 't4')).ok).toBe(true);
    expect(moved.ok && moved.undo).toBe('/undo stash/config');
    const input = 'stash/config';
    const planned = await undoChanges(fx.journal, fx.workspace, { kind: 'path', input }, false);
    expect(planned).toMatchObject({ kind: 'refused', conflicts: [{ path: 'd/x/config' }] });
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'path', input }, true);
    expect(fs.existsSync(path.join(fx.ws, '.git', 'config'))).toBe(false);
    expect(fs.readFileSync(path.join(fx.ws, 'stash', 'config'), 'utf8')).toBe(PAYLOAD);
    expect(out.kind === 'undone' && out.problems.join('\n')).toMatch(/"d\/x\/config"/);
  });

  it('does not restore an edit through a folder swapped for a symlink to outside', async () => {
    fx = await journalFixture((ws) => {
      fs.mkdirSync(path.join(ws, 'docs'));
      fs.writeFileSync(path.join(ws, 'docs', 'a.sh'), 'echo old\n', { mode: 0o755 });
    });
    const outside = path.join(path.dirname(fx.ws), 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'a.sh'), 'untouched\n', { mode: 0o600 });
    fs.chmodSync(path.join(outside, 'a.sh'), 0o600);
    expect((await fx.call('edit', ['docs/a.sh', 'old', 'new'])).ok).toBe(true);
    fs.renameSync(path.join(fx.ws, 'docs'), path.join(fx.ws, 'docs-away'));
    fs.symlinkSync(outside, path.join(fx.ws, 'docs'));
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, true);
    expect(fs.readFileSync(path.join(outside, 'a.sh'), 'utf8')).toBe('untouched\n');
    expect(fs.statSync(path.join(outside, 'a.sh')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(outside)).toEqual(['a.sh']);
    expect(out.kind === 'undone' && out.problems.join('\n')).toMatch(/outside the workspace/);
  });

  it('still undoes a change made through a symlinked folder inside the workspace', async () => {
    fx = await journalFixture((ws) => {
      fs.mkdirSync(path.join(ws, 'documentation'));
      fs.writeFileSync(path.join(ws, 'documentation', 'n.md'), 'one\n');
      fs.symlinkSync('documentation', path.join(ws, 'docs'));
    });
    const r = await fx.call('edit', ['docs/n.md', 'one', 'two']);
    // The journal records where the change really landed.
    expect(r.ok && r.undo).toBe('/undo documentation/n.md');
    const out = await undoChanges(
      fx.journal,
      fx.workspace,
      { kind: 'path', input: 'docs/n.md' },
      false,
    );
    expect(out).toMatchObject({ kind: 'undone', problems: [] });
    expect(fs.readFileSync(path.join(fx.ws, 'documentation', 'n.md'), 'utf8')).toBe('one\n');
  });
});
