/**
 * `/changes` and `/undo` as the `-p` prompt, through the real command: the first run lets the
 * scripted model change files, the next ones list and undo them, after a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { treeOf } from './fixture.js';

/** Runs cogito to the end: its exit code and what it wrote to stdout and stderr. */
async function cogito(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const run = runCogito(args, env);
  const code = await run.code;
  return { code, out: run.stdout(), err: run.stderr() };
}

describe('/changes and /undo as the -p prompt', () => {
  let server: ScriptedServer;
  let base: string;
  beforeEach(async () => {
    server = await startScriptedServer();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-print-undo-'));
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('lists the changes of the last run and undoes them all, then exits', async () => {
    const ws = path.join(base, 'ws');
    const home = path.join(base, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(ws, 'notes.md'), 'draft one\n');
    // Not executable: moving an executable asks every time (docs/SAFETY.md), and print mode
    // declines approvals.
    fs.writeFileSync(path.join(ws, 'tool.sh'), '#!/bin/sh\n', { mode: 0o644 });
    const before = await treeOf(ws);
    server.push(
      {
        kind: 'stream',
        content:
          '[TOOL] edit("notes.md", "one", "two") [/TOOL]\n[TOOL] create("plan/todo.md", "- a") [/TOOL]\n[TOOL] move("tool.sh", "bin/tool.sh") [/TOOL]',
      },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    const common = ['--workspace', ws, '--home', home, '--think-interval', '0'];
    const first = await cogito(['-p', 'tidy up', ...common], env);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain('✓ edit("notes.md", "one", "two")');

    const changes = await cogito(['-p', '/changes', '-c', ...common], env);
    expect(changes.code, changes.err).toBe(0);
    expect(changes.err).toContain('3 files changed');
    expect(changes.err).toMatch(
      /answer\n {2}moved tool\.sh → bin\/tool\.sh\n {2}created plan\/todo\.md \(3 B\)\n {2}modified notes\.md/,
    );

    const undo = await cogito(['-p', '/undo all', '-c', ...common], env);
    expect(undo.code, undo.err).toBe(0);
    expect(undo.err).toContain('Undone (3 changes, newest first)');
    expect(await treeOf(ws)).toEqual(before);
    expect(server.requests).toHaveLength(2); // the commands made no model call
  }, 90_000);
});
