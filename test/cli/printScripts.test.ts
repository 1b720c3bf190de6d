/**
 * Print mode as a script's tool, through the real program (a child process) against the
 * scripted server: each -p is its own session unless -c or --session says otherwise; the
 * folder is the one cogito starts in; folders run side by side on one home and a folder is
 * held by one Cogito; nothing configured stops at once with the ways to configure a model.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

describe('print mode for scripts', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-scripts-')));
    ws = path.join(tmp, 'project');
    home = path.join(tmp, 'home');
    await Promise.all([ws, home].map((d) => mkdir(d)));
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  /** cogito -p in `cwd` (the folder it works in), with the test's home. */
  const print = (args: string[], cwd = ws, extra: Record<string, string> = {}) =>
    runCogito(['--home', home, '--think-interval', '0', ...args], { ...env, ...extra }, { cwd });
  const sessions = async (): Promise<string[]> =>
    (await readdir(path.join(home, 'data', 'sessions'))).sort();
  /** The user messages of chat request `n`. */
  const userTexts = (n: number): string[] =>
    (server.requests[n]!.body.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);

  it('each -p is a new session; -c continues the latest; --session ID continues that one', async () => {
    server.push(
      { kind: 'stream', content: 'One. [WAIT]' },
      { kind: 'stream', content: 'Two. [WAIT]' },
      { kind: 'stream', content: 'Three. [WAIT]' },
      { kind: 'stream', content: 'Four. [WAIT]' },
    );
    const first = print(['-p', 'first question']);
    expect(await first.code).toBe(0);
    expect(first.stdout()).toBe('One.\n');
    const [firstId] = await sessions();

    const second = print(['-p', 'second question']);
    expect(await second.code).toBe(0);
    expect(await sessions()).toHaveLength(2);
    // The second run saw nothing of the first.
    expect(userTexts(1).join('\n')).not.toContain('first question');

    const continued = print(['-p', 'third question', '-c']);
    expect(await continued.code).toBe(0);
    expect(await sessions()).toHaveLength(2);
    expect(userTexts(2).join('\n')).toContain('second question');
    expect(userTexts(2).join('\n')).not.toContain('first question');

    const named = print(['-p', 'fourth question', '--session', firstId!]);
    expect(await named.code).toBe(0);
    expect(named.stdout()).toBe('Four.\n');
    expect(await sessions()).toHaveLength(2);
    expect(userTexts(3).join('\n')).toContain('first question');
    expect(userTexts(3).join('\n')).not.toContain('second question');
  }, 120_000);

  it('works in the folder it is started in, not one a config.json pinned (removed, said once)', async () => {
    const pinned = path.join(tmp, 'pinned');
    await mkdir(pinned);
    await writeFile(path.join(home, 'config.json'), JSON.stringify({ workspace: pinned }));
    await writeFile(path.join(ws, 'here.txt'), 'the folder cogito started in');
    server.push(
      { kind: 'stream', content: '[TOOL] read("here.txt") [/TOOL]' },
      { kind: 'stream', content: 'Read it. [WAIT]' },
    );
    const run = print(['-p', 'read here.txt']);
    expect(await run.code).toBe(0);
    expect(run.stdout()).toBe('Read it.\n');
    expect(String(server.requests[1]!.body.messages.at(-1).content)).toContain(
      'the folder cogito started in',
    );
    expect(run.stderr()).toContain(`config.json set "workspace": "${pinned}"`);
    expect(run.stderr()).toContain('The setting was removed from config.json.');
    const saved = JSON.parse(await readFile(path.join(home, 'config.json'), 'utf8')) as object;
    expect(saved).not.toHaveProperty('workspace');
    const [id] = await sessions();
    const meta = JSON.parse(
      await readFile(path.join(home, 'data', 'sessions', id!, 'meta.json'), 'utf8'),
    ) as { workspace?: string };
    expect(meta.workspace).toBe(ws);

    // Once: the next run says nothing about it.
    const again = print(['-p', 'hello']);
    expect(await again.code).toBe(0);
    expect(again.stderr()).not.toContain('"workspace"');
  }, 60_000);

  it('npm start in a checkout works in the folder it was typed in, not the checkout', async () => {
    server.push({ kind: 'stream', content: 'Here. [WAIT]' });
    const root = path.resolve(import.meta.dirname, '../..');
    const child = spawn('npm', ['--prefix', root, 'start', '--', '-p', 'where?', '--home', home], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? '', HOME: tmp, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(out).toContain('Here.');
    const [id] = await sessions();
    const meta = JSON.parse(
      await readFile(path.join(home, 'data', 'sessions', id!, 'meta.json'), 'utf8'),
    ) as { workspace?: string };
    expect(meta.workspace).toBe(ws);
  }, 60_000);

  it('two folders run side by side on one home; a second one on the same folder is told who holds it', async () => {
    const other = path.join(tmp, 'other');
    await mkdir(other);
    // The first Cogito waits on its model for as long as the test needs.
    server.push({ kind: 'hang' }, { kind: 'stream', content: 'Side by side. [WAIT]' });
    const first = print(['-p', 'a long question']);
    await server.waitForRequest(0, 30_000);

    const beside = print(['-p', 'a quick question'], other);
    expect(await beside.code).toBe(0);
    expect(beside.stdout()).toBe('Side by side.\n');

    const same = print(['-p', 'me too']);
    expect(await same.code).toBe(3);
    expect(same.stderr()).toContain(`A cogito -p run (pid ${first.pid}, running since `);
    expect(same.stderr()).toContain(`is working in ${ws}`);
    expect(same.stderr()).toContain(`Wait for it to finish (or end it: kill ${first.pid})`);
    // A print run has no window: the message does not send the user looking for one.
    expect(same.stderr()).not.toContain('in its window');
    expect(same.stdout()).toBe('');
    expect(server.requests).toHaveLength(2);

    first.kill('SIGINT');
    expect(await first.code).toBe(130);
  }, 90_000);

  it('with no model configured it stops at once, exit 2, naming --setup, the variables and --download-model', async () => {
    const run = runCogito(['-p', 'hello', '--home', home], { HOME: tmp }, { cwd: ws });
    expect(await run.code).toBe(2);
    const err = run.stderr();
    expect(err).toContain('no model is configured');
    for (const hint of ['cogito --setup', 'COGITO_API_KEY', 'OPENAI_API_KEY', 'COGITO_BASE_URL']) {
      expect(err).toContain(hint);
    }
    expect(err).toContain('cogito --download-model');
    expect(run.stdout()).toBe('');
    // Nothing was started: no session, no lock.
    await expect(readdir(path.join(home, 'data'))).rejects.toThrow();
  }, 60_000);
});
