/**
 * Dead ends through the real program (issue 33.6): each names the command that works.
 * A rejected key is said once and exits 2 (README); a missing --workspace is the flag's
 * problem, not config.json's; with a screen open in the folder, `send` and `start` name that
 * screen and Ctrl+D (never a `start` that is then refused), `-p` runs beside it in a session
 * of its own, and the hints name the command as it was run (`node …/bin/cogito.js`).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFolderLock } from '../../src/history/lock.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

describe('dead ends name what works', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-deadends-')));
    ws = path.join(tmp, 'work');
    await mkdir(ws);
    env = { COGITO_API_KEY: 'sk-bad', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('a rejected key (401) is reported once and exits 2', async () => {
    server.push({ kind: 'error', status: 401 });
    const run = runCogito(['-p', 'hi', '--home', path.join(tmp, 'home')], env, { cwd: ws });
    const code = await run.code;
    expect(code).toBe(2);
    const lines = run
      .stderr()
      .split('\n')
      .filter((l) => /401/.test(l));
    expect(lines).toHaveLength(1);
  }, 60_000);

  it('a missing --workspace folder is the flag problem, with the fix', async () => {
    const missing = path.join(tmp, 'nope');
    const run = runCogito(
      ['-p', 'hi', '--workspace', missing, '--home', path.join(tmp, 'home')],
      env,
      {
        cwd: ws,
      },
    );
    expect(await run.code).toBe(2);
    expect(run.stderr()).toContain(`✗ --workspace: the folder ${missing} does not exist`);
    expect(run.stderr()).toContain('mkdir -p');
    expect(run.stderr()).not.toContain('config.json');
  }, 60_000);

  it('with a screen open: send and start name the screen and Ctrl+D, -p runs beside it', async () => {
    const home = path.join(tmp, 'home');
    await mkdir(home);
    // The folder held the way an open screen holds it (the shared place as the child sees it).
    const screen = acquireFolderLock(home, ws, 'screen', undefined, {});
    expect(screen.ok).toBe(true);
    try {
      const cogito = async (args: string[]) => {
        const run = runCogito([...args, '--home', home], env, { cwd: ws });
        return { code: await run.code, out: run.stdout(), err: run.stderr() };
      };
      const sent = await cogito(['send', 'x']);
      expect(sent.code).toBe(4);
      expect(sent.err).toContain(`a Cogito screen (pid ${process.pid}) has it open`);
      expect(sent.err).toContain('Type your message in that screen');
      expect(sent.err).toContain('press Ctrl+D there');
      // Never the way that is refused next.
      expect(sent.err).not.toMatch(/cogito start/);

      const started = await cogito(['start']);
      expect(started.code).toBe(3);
      expect(started.err).toContain('press Ctrl+D there');
      expect(started.err).not.toMatch(/cogito start/);

      server.push({ kind: 'stream', content: 'Answered beside the screen.' });
      const beside = await cogito(['-p', 'a quick question']);
      expect(beside.code, beside.err).toBe(0);
      expect(beside.out).toBe('Answered beside the screen.\n');
      expect(await readdir(path.join(home, 'data', 'sessions'))).toHaveLength(1);

      const cont = await cogito(['-p', 'go on', '-c']);
      expect(cont.code).toBe(3);
      expect(cont.err).toContain('Without -c and --session, cogito -p runs beside it');
    } finally {
      if (screen.ok) screen.release();
    }
  }, 120_000);

  it('hints name the command as it was run: node bin/cogito.js in a clone', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const bin = path.join(root, 'bin', 'cogito.js');
    const child = spawn(process.execPath, [bin, 'send', 'x', '--home', path.join(tmp, 'home')], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(4);
    // No background agent and no screen: start one, with the command this clone has.
    expect(err).toContain(`node ${bin} start --workspace ${JSON.stringify(ws)}`);
    expect(err).not.toMatch(/(^|\s)cogito start/);
  }, 120_000);
});
