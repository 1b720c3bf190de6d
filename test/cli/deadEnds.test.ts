/**
 * Dead ends through the real program (issue 33.6): each names the command that works.
 * A rejected key is said once and exits 2 (README); a missing --workspace is the flag's
 * problem, not config.json's.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
