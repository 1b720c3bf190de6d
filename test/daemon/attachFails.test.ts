/**
 * The screen meets a background agent it cannot attach to, through the real program: the
 * registry names a live process of the folder, but its socket is a listener that never says
 * hello (a hung or impostor agent), or there is no socket at all. `cogito` says which agent
 * it could not reach and how to check or stop it, and exits 1: a silent socket does not hold
 * the screen up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processStartToken } from '../../src/core/processIdentity.js';
import { writeEntry } from '../../src/daemon/registry.js';
import { runCogito } from '../helpers/cogitoProcess.js';

describe('a background agent the screen cannot attach to', () => {
  let tmp: string;
  let home: string;
  let ws: string;
  let holder: ChildProcess;
  let server: net.Server | undefined;
  const silent: net.Socket[] = [];

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-attach-fails-')));
    home = path.join(tmp, 'home');
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(home, 'config.json'), '{}');
    // A live process for the registry to name, with its real start token: to the screen it
    // is the folder's agent.
    holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterEach(async () => {
    holder.kill('SIGKILL');
    for (const s of silent) s.destroy();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const register = (socket: string): void => {
    writeEntry(home, {
      workspace: ws,
      pid: holder.pid!,
      socket,
      started: new Date().toISOString(),
      log: path.join(tmp, 'agent.log'),
      startToken: processStartToken(holder.pid!) ?? '',
    });
  };

  const openScreen = async () => {
    const run = runCogito(['--home', home, '--workspace', ws], {
      COGITO_API_KEY: 'sk-test',
      COGITO_BASE_URL: 'http://127.0.0.1:9/v1',
      COGITO_MODEL: 'scripted',
    });
    return { code: await run.code, err: run.stderr() };
  };

  it('a socket that accepts and never answers: it says so and exits 1', async () => {
    const socket = path.join(tmp, 'agent.sock');
    server = net.createServer((s) => silent.push(s));
    await new Promise<void>((r) => server!.listen(socket, r));
    register(socket);
    const { code, err } = await openScreen();
    expect(err).toContain(`a background agent runs in ${ws} (pid ${holder.pid})`);
    expect(err).toContain('this screen could not attach to it');
    expect(err).toMatch(/stop --workspace/);
    expect(code).toBe(1);
    // It did connect (early, while its screen loaded), and gave up on a silent agent.
    expect(silent.length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('no socket where the registry says: it says so and exits 1', async () => {
    register(path.join(tmp, 'gone.sock'));
    const { code, err } = await openScreen();
    expect(err).toContain('this screen could not attach to it');
    expect(code).toBe(1);
  }, 60_000);
});
