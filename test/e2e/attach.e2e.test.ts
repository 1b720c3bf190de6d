/**
 * Screens that attach to a background agent, through the real program: `cogito start`, a
 * workspace change wakes it, `cogito` in tmux attaches and shows what happened while away
 * without a new model request, a typed message is answered on the attached screen, a second
 * screen sees the same, Ctrl+D and /detach return the shell with the agent still running,
 * the in-process screen's /detach hands its session to a background agent, /exit in an
 * attached screen stops the agent, and no process is left. The scripted server is the model.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isAlive } from '../../src/core/processAlive.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxWindows } from '../helpers/tmuxPane.js';
import { waitUntil } from '../helpers/waitFor.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-attach-${process.pid}`;
const quote = shellQuote;
// The machine may be loaded: a cold start through tsx takes seconds.
const { tmux, screen, keys, waitForScreen } = tmuxWindows(socket, { timeoutMs: 90_000 });

/**
 * Closes the digest with Esc and waits until it is gone: keys typed at once could reach the
 * program in the same read as the Esc and be taken as Alt+key.
 */
async function closeDigest(w: string): Promise<void> {
  keys(w, 'Escape');
  await waitForScreen(w, (s) => !s.includes('While you were away'), `${w}: the digest closed`);
}

interface Row {
  running: boolean;
  pid: number;
  workspace: string;
}

describeWithTmux('screens attached to a background agent (tmux)', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const pids = new Set<number>();

  beforeAll(async () => {
    server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Nothing new. [WAIT]' });
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-attach-')));
    ws = path.join(tmp, 'ws');
    home = path.join(tmp, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    fs.writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ watch: { minWakeIntervalMs: 0 } }),
    );
    env = {
      COGITO_API_KEY: 'sk-test',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'scripted',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
    };
  });
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    for (const pid of pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const cogito = async (args: string[]) => {
    const run = runCogito([...args, '--home', home], env, { cwd: ws });
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  const status = async (): Promise<Row[]> => {
    const rows = JSON.parse((await cogito(['status', '--json'])).out) as Row[];
    for (const r of rows) pids.add(r.pid);
    return rows;
  };
  /** `cogito` (the full-screen app) in its own tmux window; the shell says how it exited. */
  const openScreen = (name: string): void => {
    const vars = Object.entries({ ...env, PATH: process.env.PATH ?? '', HOME: tmp }).map(
      ([k, v]) => `${k}=${quote(v)}`,
    );
    const run = `cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --home ${quote(home)} --workspace ${quote(ws)} --think-interval 600000; echo EXIT=$?; sleep 300`;
    if (spawnSync('tmux', ['-L', socket, 'has-session']).status === 0)
      tmux('new-window', '-d', '-n', name, run);
    else tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'cogito', '-n', name, run);
  };
  const agentLog = (): string => {
    const dir = path.join(home, 'data', 'logs');
    const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    const name = names.find((n) => n.startsWith('agent-'));
    return name ? fs.readFileSync(path.join(dir, name), 'utf8') : '';
  };

  test('attach, talk, two screens, detach, hand over, stop: nothing left', async () => {
    server.push({ kind: 'stream', content: 'Looked around the folder.' });
    const started = await cogito(['start', '--think-interval', '600000']);
    expect(started.code, started.err).toBe(0);
    const [agent] = await status();
    await server.waitForRequest(0, 90_000);
    await waitUntil(() => agentLog().includes('turn 1 ended'), 'the first turn', 90_000);

    // A change wakes it while nobody watches.
    server.push({ kind: 'stream', content: 'Saw note.txt: AWAY-MARK.' });
    fs.writeFileSync(path.join(ws, 'note.txt'), 'something new');
    await server.waitForRequest(1, 90_000);
    await waitUntil(() => agentLog().includes('turn 2 ended'), 'the wake turn', 90_000);
    const before = server.requests.length;

    // A screen attaches: the digest of the absence, then what happened, with no new request.
    openScreen('a');
    await waitForScreen('cogito:a', (s) => s.includes('While you were away'), 'the digest');
    await closeDigest('cogito:a');
    await waitForScreen('cogito:a', (s) => s.includes('AWAY-MARK'), 'the reply made while away');
    expect(server.requests.length).toBe(before);

    // Typing on the attached screen reaches the live agent; its answer shows there.
    const HELLO = 'hello from the attached screen';
    server.setDefault((req) => ({
      kind: 'stream',
      content: JSON.stringify(req.body.messages).includes(HELLO)
        ? 'ATTACHED-ANSWER to you. [WAIT]'
        : 'Nothing new. [WAIT]',
    }));
    keys('cogito:a', '-l', HELLO);
    keys('cogito:a', 'Enter');
    await waitUntil(
      () => server.requests.some((r) => JSON.stringify(r.body.messages).includes(HELLO)),
      'the typed message to reach the model',
      {
        timeoutMs: 90_000,
        detail: () => `Screen a:\n${screen('cogito:a')}\nAgent log:\n${agentLog().slice(-2000)}`,
      },
    );
    await waitForScreen('cogito:a', (s) => s.includes('ATTACHED-ANSWER'), 'the answer');

    // A second screen sees the same conversation.
    openScreen('b');
    await waitForScreen('cogito:b', (s) => s.includes('While you were away'), 'b: the digest');
    await closeDigest('cogito:b');
    await waitForScreen('cogito:b', (s) => s.includes('ATTACHED-ANSWER'), 'b: the answer');

    // Ctrl+D and /detach return the shell; the agent runs on.
    keys('cogito:a', 'C-d');
    const a = await waitForScreen('cogito:a', (s) => s.includes('EXIT='), 'a: the shell');
    expect(a).toContain('EXIT=0');
    expect(a).toContain('Detached: the agent keeps running');
    keys('cogito:b', '-l', '/detach');
    keys('cogito:b', 'Enter');
    const b = await waitForScreen('cogito:b', (s) => s.includes('EXIT='), 'b: the shell');
    expect(b).toContain('EXIT=0');
    expect(await status()).toMatchObject([{ running: true, pid: agent!.pid }]);

    // Stop it; the in-process screen then opens the folder itself and hands it over.
    expect((await cogito(['stop'])).code).toBe(0);
    expect(await status()).toEqual([]);
    openScreen('c');
    await waitForScreen('cogito:c', (s) => s.includes('ATTACHED-ANSWER'), 'c: the session');
    keys('cogito:c', '-l', '/detach');
    keys('cogito:c', 'Enter');
    const c = await waitForScreen('cogito:c', (s) => s.includes('EXIT='), 'c: the shell');
    expect(c).toContain('Cogito runs in the background in');
    expect(c).toContain('EXIT=0');
    const [handed] = await status();
    expect(handed).toMatchObject({ running: true, workspace: ws });
    expect(handed!.pid).not.toBe(agent!.pid);

    // /exit in an attached screen ends the agent.
    openScreen('d');
    await waitForScreen('cogito:d', (s) => s.includes('While you were away'), 'd: the digest');
    await closeDigest('cogito:d');
    keys('cogito:d', '-l', '/exit');
    keys('cogito:d', 'Enter');
    const d = await waitForScreen('cogito:d', (s) => s.includes('EXIT='), 'd: the shell');
    expect(d).toContain('was asked to stop');
    await waitUntil(async () => (await status()).length === 0, 'the agent to stop', 90_000);
    // The row goes just before the process ends; a process whose parent does not reap it
    // lingers as a zombie, which counts as gone.
    await waitUntil(() => [...pids].every((pid) => !isAlive(pid)), 'no agent process left', {
      timeoutMs: 30_000,
      detail: () => `Alive: ${[...pids].filter(isAlive).join(', ')}`,
    });
  }, 900_000);
});
