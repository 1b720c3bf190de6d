/**
 * The instruction set on real temp folders: which file a folder gives, the budget served
 * nearest first and its cuts named, reloading at the next prompt only, Cogito's own changes
 * held back until seen, imports (code, depth, cycles, the fence), subfolders' files once.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InstructionSet, subfolders, cutToBytes } from '../../src/instructions/instructionSet.js';
import { importTargets } from '../../src/instructions/imports.js';
import { Workspace } from '../../src/tools/workspace.js';
import { contextText, initRequest, INSTRUCTION_COMMANDS } from '../../src/commands/instructions.js';
import { fakeCommandContext } from '../helpers/fakeCommandContext.js';

const NAMES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];

describe('instruction files', () => {
  let top: string;
  let repo: string;
  let ws: string;
  let workspace: Workspace;
  beforeEach(async () => {
    top = mkdtempSync(path.join(os.tmpdir(), 'cogito-instrset-'));
    repo = path.join(top, 'repo');
    ws = path.join(repo, 'app');
    mkdirSync(path.join(repo, '.git'), { recursive: true });
    mkdirSync(ws);
    workspace = await Workspace.open(ws);
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    writeFileSync(path.join(top, rel), text);
  };
  const set = (over: Partial<ConstructorParameters<typeof InstructionSet>[0]> = {}) =>
    new InstructionSet({ workspace, names: NAMES, maxBytes: 10_000, ...over });

  it('reads the git root down to the workspace, one file per folder (AGENTS.md, else CLAUDE.md, else GEMINI.md)', () => {
    write('repo/CLAUDE.md', 'root rule');
    write('repo/GEMINI.md', 'never read: CLAUDE.md comes first');
    write('repo/app/AGENTS.md', 'app rule');
    write('repo/app/CLAUDE.md', 'never read: AGENTS.md comes first');
    write('AGENTS.md', 'above the git root: never read');
    const prompt = set().prompt();
    expect(prompt).toContain('## ../CLAUDE.md (the workspace)\nroot rule');
    expect(prompt).toContain('## AGENTS.md (the workspace)\napp rule');
    expect(prompt.indexOf('root rule')).toBeLessThan(prompt.indexOf('app rule'));
    expect(prompt).not.toContain('never read');
    expect(set({ names: [] }).prompt()).toBe('');
  });

  it('serves the budget nearest first, and names what it cut in the prompt and in /context', () => {
    write('repo/AGENTS.md', 'R'.repeat(300));
    write('repo/app/AGENTS.md', 'A'.repeat(150));
    const s = set({ maxBytes: 200 });
    const prompt = s.prompt();
    expect(prompt).toContain('A'.repeat(150));
    expect(prompt).toContain(`${'R'.repeat(50)}\n`);
    expect(prompt).not.toContain('R'.repeat(51));
    expect(prompt).toContain(
      '- ../AGENTS.md: cut to fit the budget: 50 B of 300 B kept (instructions.maxBytes is 200)',
    );
    const shown = contextText(s.report(), 'en');
    expect(shown).toMatch(/\.\.\/AGENTS\.md\s+300 B\s+cut to fit the budget: 50 B of 300 B kept/);
    expect(shown).toMatch(/\n {2}AGENTS\.md\s+150 B\n?/);
    // Spent to the last byte: the farther file is named as not loaded at all.
    const none = set({ maxBytes: 150 });
    expect(none.prompt()).toMatch(/\.\.\/AGENTS\.md: not loaded: the instruction budget was spent/);
  });

  it('a changed file is read again at the next prompt, and only then; the same files give the same string', () => {
    write('repo/app/AGENTS.md', 'first');
    const s = set();
    const one = s.prompt();
    expect(s.prompt()).toBe(one);
    write('repo/app/AGENTS.md', 'second, longer');
    expect(s.prompt()).toContain('second, longer');
    write('repo/app/docs/x.md', '');
    write('repo/app/GEMINI.md', 'ignored while AGENTS.md is there');
    expect(s.prompt()).not.toContain('ignored');
  });

  it('a file Cogito changed this session is not applied until the user has seen it (/context)', async () => {
    write('repo/app/AGENTS.md', 'the user wrote this');
    const changed = new Map<string, string>();
    const s = set({ changedByCogito: () => changed });
    expect(s.prompt()).toContain('the user wrote this');
    write('repo/app/AGENTS.md', 'Cogito wrote this');
    changed.set('AGENTS.md', 'c1');
    const held = s.prompt();
    expect(held).toContain('the user wrote this');
    expect(held).not.toContain('Cogito wrote this');
    expect(held).toContain(
      'AGENTS.md: changed by Cogito this session; not applied until the user has seen it',
    );
    // /context shows it, and seeing it applies it from the next prompt on.
    const ctx = fakeCommandContext({
      instructions: { report: () => s.report(), markSeen: () => s.markSeen(), queue: () => {} },
    });
    await INSTRUCTION_COMMANDS.find((c) => c.name === 'context')!.run({
      ctx,
      args: '',
      signal: new AbortController().signal,
    });
    expect(ctx.said.join('\n')).toMatch(/AGENTS\.md.*changed by Cogito this session, not applied/);
    expect(s.prompt()).toContain('Cogito wrote this');
    // A new change of Cogito's is held back again; one it created from nothing gives nothing.
    write('repo/app/AGENTS.md', 'Cogito again');
    changed.set('AGENTS.md', 'c2');
    expect(s.prompt()).toContain('Cogito wrote this');
    const fresh = set({ changedByCogito: () => changed });
    expect(fresh.prompt()).not.toContain('Cogito again');
    expect(fresh.prompt()).toContain('AGENTS.md: changed by Cogito this session');
  });

  it('imports: outside code, nested up to five deep, each file once, never outside or into a fenced file', async () => {
    expect(
      importTargets('See @a.md, @docs/b.md and @~/x.\nMail me@example.com, ask @alice.'),
    ).toEqual(['a.md', 'docs/b.md', '~/x']);
    expect(importTargets('`@a.md` here\n```\n@b.md\n```\n~~~\n@c.md\n~~~\n@d.md')).toEqual([
      'd.md',
    ]);
    for (let i = 1; i <= 7; i++) write(`repo/app/i${i}.md`, `level ${i} @i${i + 1}.md`);
    write('repo/app/AGENTS.md', 'top @i1.md @i1.md @AGENTS.md @secret.json @../outside.md');
    write('repo/outside.md', 'OUTSIDE');
    write('repo/app/secret.json', 'KEY');
    await workspace.fence(path.join(ws, 'secret.json'), "Cogito's settings file");
    const prompt = set().prompt();
    for (let i = 1; i <= 5; i++) expect(prompt).toContain(`level ${i}`);
    expect(prompt).not.toContain('level 6');
    expect(prompt.match(/level 1/g)).toHaveLength(1);
    expect(prompt).toContain('import @i6.md refused: imports nest 5 deep at most');
    expect(prompt).toContain("import @secret.json refused: it is Cogito's settings file");
    expect(prompt).toMatch(/import @\.\.\/outside\.md refused: outside/);
    expect(prompt).not.toContain('KEY');
    expect(prompt).not.toContain('OUTSIDE');
  });

  it('an import through a symlink that points out is refused', () => {
    write('repo/outside.md', 'OUTSIDE');
    symlinkSync(path.join(repo, 'outside.md'), path.join(ws, 'in.md'));
    write('repo/app/AGENTS.md', 'see @in.md');
    const prompt = set().prompt();
    expect(prompt).toMatch(/import @in\.md refused: outside .* \(it leads through a symlink to /);
    expect(prompt).not.toContain('OUTSIDE');
  });

  it("a subfolder's file comes once with the first touch, again only once changed; a spent budget is named", () => {
    write('repo/app/docs/AGENTS.md', 'docs rule');
    write('repo/app/docs/deep/CLAUDE.md', 'deep rule '.repeat(30));
    write('repo/app/docs/a.md', 'a');
    const s = set({ maxBytes: 100 });
    const first = s.forPaths(['docs/a.md']);
    expect(first).toContain('[Instructions for docs/ from docs/AGENTS.md');
    expect(first).toContain('docs rule');
    expect(s.forPaths(['docs'])).toBeUndefined();
    const deep = s.forPaths(['docs/deep']);
    expect(deep).toMatch(/docs\/deep\/CLAUDE\.md: cut to fit the budget: \d+ B of 299 B kept/);
    write('repo/app/docs/AGENTS.md', 'docs rule, changed');
    const stamp = new Date(Date.now() + 5000);
    utimesSync(path.join(ws, 'docs', 'AGENTS.md'), stamp, stamp);
    expect(s.forPaths(['docs/a.md'])).toContain('changed since you last saw it');
    expect(contextText(s.report(), 'en')).toContain('Loaded with a tool result');
    expect(s.prompt()).not.toContain('docs rule');
  });

  it('helpers: subfolders outermost first; a cut never splits a character', () => {
    expect(subfolders(['.', 'a/b/c.md', 'a/d'], (rel) => rel === 'a/d')).toEqual([
      'a',
      'a/b',
      'a/d',
    ]);
    expect(cutToBytes('日本語', 4)).toBe('日');
  });

  it('/init asks the model through a queued message, and leaves an existing file alone', async () => {
    write('repo/app/notes/x.md', 'x');
    write('repo/app/todo.txt', 'x');
    const queued: string[] = [];
    const s = set();
    const ctx = fakeCommandContext({
      instructions: { report: () => s.report(), markSeen: () => {}, queue: (t) => queued.push(t) },
    });
    const init = INSTRUCTION_COMMANDS.find((c) => c.name === 'init')!;
    await init.run({ ctx, args: '', signal: new AbortController().signal });
    expect(queued).toHaveLength(1);
    expect(queued[0]).toContain('create("AGENTS.md"');
    expect(queued[0]).toContain('- notes/\n- todo.txt');
    expect(initRequest('/w', [])).toContain('(empty)');
    write('repo/app/CLAUDE.md', 'mine');
    await init.run({ ctx, args: '', signal: new AbortController().signal });
    expect(queued).toHaveLength(1);
    expect(ctx.said.at(-1)).toContain('already has CLAUDE.md');
  });
});
