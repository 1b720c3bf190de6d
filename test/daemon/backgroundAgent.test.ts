/**
 * The background agent through the real program (`cogito start|status|stop` as child
 * processes, the scripted server as the model, a real stdio MCP server): it starts and
 * answers, status lists it, a workspace change wakes it, SIGHUP leaves it running, kill -9
 * loses nothing and the next start resumes the same session (the stale socket replaced, the
 * orphaned MCP server ended), stop leaves no process behind.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processStartToken } from '../../src/core/processIdentity.js';
import { agentKey } from '../../src/daemon/places.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { isAlive, readPid, stdioFixtureConfig } from '../helpers/mcpServers.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

interface Row {
  running: boolean;
  workspace: string;
  pid: number;
  state: string;
  sessionId?: string;
  since?: string;
  lastActivity?: string;
  tokensToday?: number;
}

describe('cogito start / status / stop', () => {
  let server: ScriptedServer;
  let tmp: string;
  let ws: string;
  let home: string;
  let marks: string;
  let env: Record<string, string>;
  const pids: number[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-bg-')));
    ws = path.join(tmp, 'project');
    home = path.join(tmp, 'home');
    marks = path.join(tmp, 'marks');
    await Promise.all([ws, home, marks].map((d) => mkdir(d)));
    const fx = stdioFixtureConfig({ env: { MCP_FIXTURE_DIR: marks } });
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({
        watch: { minWakeIntervalMs: 0 },
        mcpServers: { fx: { command: fx.command, args: fx.args, env: fx.env } },
      }),
    );
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    // Whatever a failed test left running goes, so no run leaves processes behind.
    for (const pid of pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const cogito = async (args: string[]) => {
    const run = runCogito([...args, '--home', home], env, { cwd: ws });
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  const status = async (): Promise<Row[]> => {
    const r = await cogito(['status', '--json']);
    expect(r.code).toBe(0);
    return JSON.parse(r.out) as Row[];
  };
  const log = async (): Promise<string> => {
    const dir = path.join(home, 'data', 'logs');
    const [name] = (await readdir(dir)).filter((n) => n.startsWith('agent-'));
    return readFile(path.join(dir, name!), 'utf8');
  };
  const startAgent = async (): Promise<Row> => {
    const started = await cogito(['start', '--think-interval', '600000']);
    expect(started.code, started.err).toBe(0);
    expect(started.out).toContain(`Cogito runs in the background in ${ws} (pid `);
    expect(started.out).toContain('cogito stop --workspace');
    const [row] = await status();
    pids.push(row!.pid);
    return row!;
  };
  /** The MCP server the agent started (its pid file changes with each start). */
  const mcpPid = (not?: number) =>
    waitUntil(
      () => {
        const pid = readPid(path.join(marks, 'pid'));
        return pid !== undefined && pid !== not && isAlive(pid) ? pid : undefined;
      },
      'the MCP server to start',
      30_000,
    );

  it('runs in the background, wakes on a change, survives SIGHUP and kill -9, resumes, stops clean', async () => {
    server.push({ kind: 'stream', content: 'Looked around the folder.' });
    const first = await startAgent();
    expect(first).toMatchObject({ running: true, workspace: ws });
    expect(first.state).toMatch(/THINKING|AWAITING_INPUT/);
    expect(typeof first.tokensToday).toBe('number');
    expect(Date.parse(first.since!)).not.toBeNaN();
    await server.waitForRequest(0, 30_000);
    const firstMcp = await mcpPid();

    // The socket is private.
    const [sock] = (await readdir(path.join(home, 'data', 'run'))).filter((n) =>
      n.endsWith('.sock'),
    );
    const sockPath = path.join(home, 'data', 'run', sock!);
    expect((await stat(sockPath)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(sockPath))).mode & 0o777).toBe(0o700);

    // A second start finds it running and leaves it alone.
    const again = await cogito(['start']);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`already runs in the background in ${ws} (pid ${first.pid})`);

    // A change in the folder wakes it: the model is asked again.
    await waitUntil(
      async () => (await log()).includes('turn 1 ended'),
      'the first turn to end',
      30_000,
    );
    server.push({ kind: 'stream', content: 'Saw the new note.' });
    await writeFile(path.join(ws, 'note.txt'), 'something new');
    const woke = await server.waitForRequest(1, 30_000);
    expect(JSON.stringify(woke.body.messages)).toContain('note.txt');

    // The terminal closing does not touch it.
    process.kill(first.pid, 'SIGHUP');
    await waitUntil(
      async () => (await log()).includes('SIGHUP ignored'),
      'the SIGHUP to be noted',
      15_000,
    );
    expect((await status())[0]).toMatchObject({ running: true, pid: first.pid });

    // kill -9: the next start cleans up after it and resumes the same session.
    await waitUntil(
      async () => (await log()).includes('turn 2 ended'),
      'the wake turn to end',
      30_000,
    );
    process.kill(first.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(first.pid), 'the agent to die', 15_000);
    server.push({ kind: 'stream', content: 'Back again.' });
    const second = await startAgent();
    expect(second.pid).not.toBe(first.pid);
    expect(second.sessionId).toBe(first.sessionId);
    // The MCP server the killed agent left behind was ended.
    await waitUntil(() => !isAlive(firstMcp), 'the orphaned MCP server to be ended', 15_000);
    const resumed = await server.waitForRequest(2, 30_000);
    expect(JSON.stringify(resumed.body.messages)).toContain('Saw the new note.');
    const secondMcp = await mcpPid(firstMcp);

    // stop: it quits over the socket, and nothing is left running.
    const stopped = await cogito(['stop']);
    expect(stopped.code, stopped.err).toBe(0);
    expect(stopped.out).toContain(`${ws}: stopped (pid ${second.pid})`);
    for (const pid of [first.pid, second.pid, firstMcp, secondMcp])
      expect(isAlive(pid)).toBe(false);
    expect(await status()).toEqual([]);
    expect(await readdir(path.join(home, 'data', 'run'))).toEqual([]);
    const none = await cogito(['stop']);
    expect(none.code).toBe(0);
    expect(none.out).toContain(`No Cogito runs in the background in ${ws}.`);
  }, 300_000);

  it('status lists a dead agent as gone and cleans its entry', async () => {
    const run = path.join(home, 'data', 'run');
    await mkdir(run, { recursive: true, mode: 0o700 });
    // A pid that cannot be running: above the kernel's largest.
    const entry = {
      workspace: ws,
      pid: 4_194_304 + 7,
      socket: path.join(run, 'x.sock'),
      started: '2026-01-01T00:00:00.000Z',
      log: '',
    };
    await writeFile(path.join(run, `${agentKey(ws)}.json`), JSON.stringify(entry));
    await writeFile(path.join(run, 'junk.json'), '{"half');
    const rows = await status();
    expect(rows).toEqual([
      { running: false, workspace: ws, pid: entry.pid, state: 'gone', started: entry.started },
    ]);
    // The dead agent's entry is gone; the damaged one is kept aside for a look, never read
    // again as an entry.
    const left = await readdir(run);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^junk\.corrupt-.+\.json$/);
    const text = await cogito(['status']);
    expect(text.out).toContain('No Cogito runs in the background');
    // stop --all cleans a dead one up too.
    await writeFile(path.join(run, `${agentKey(ws)}.json`), JSON.stringify(entry));
    const all = await cogito(['stop', '--all']);
    expect(all.code).toBe(0);
    expect(all.out).toContain(`${ws}: was not running any more; cleaned up (pid ${entry.pid})`);
    expect(await readdir(run)).toEqual(left);
  }, 60_000);

  it('a folder a full-screen (or -p) Cogito holds is refused with exit 3, saying who holds it', async () => {
    server.push({ kind: 'hang' });
    const holder = runCogito(['--home', home, '-p', 'a long question'], env, { cwd: ws });
    await server.waitForRequest(0, 60_000);
    const r = await cogito(['start']);
    expect(r.code).toBe(3);
    expect(r.err).toContain('the background agent did not start');
    expect(r.err).toContain(`A cogito -p run (pid ${holder.pid}`);
    expect(await status()).toEqual([]);
    holder.kill('SIGINT');
    expect(await holder.code).toBe(130);
  }, 120_000);

  it('stop ends an agent that does not answer and ignores SIGTERM: SIGKILL, its group with it', async () => {
    // A stand-in for a hung agent: leads its own group, shrugs off SIGTERM, has a child.
    const hung = spawn(
      process.execPath,
      [
        '-e',
        "process.on('SIGTERM',()=>{});" +
          "const c=require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});" +
          'console.log(c.pid);setInterval(()=>{},1000)',
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    pids.push(hung.pid!);
    let out = '';
    hung.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const childPid = Number(
      await waitUntil(() => out.trim() || undefined, 'the child pid', 15_000),
    );
    const run = path.join(home, 'data', 'run');
    await mkdir(run, { recursive: true, mode: 0o700 });
    const entry = {
      workspace: ws,
      pid: hung.pid,
      socket: path.join(run, 'none.sock'),
      started: new Date().toISOString(),
      log: '',
      // As the agent records itself: who that pid is, so a stranger with it is never signalled.
      startToken: processStartToken(hung.pid!),
    };
    await writeFile(path.join(run, `${agentKey(ws)}.json`), JSON.stringify(entry));
    const r = await cogito(['stop']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${ws}: did not stop; killed (pid ${hung.pid})`);
    await waitUntil(() => !isAlive(hung.pid!) && !isAlive(childPid), 'both to be gone', 15_000);
    expect(await readdir(run)).toEqual([]);
  }, 120_000);

  it('a bad subcommand option is a usage error naming the options it takes', async () => {
    const r = await cogito(['stop', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("Unknown option '--bogus'");
    expect(r.err).toContain('cogito stop takes: --workspace, --home, --all');
    // With no model configured, start stops at once, naming the ways to configure one.
    const bare = runCogito(['start', '--home', home], { HOME: tmp }, { cwd: ws });
    expect(await bare.code).toBe(2);
    expect(bare.stderr()).toContain('no model is configured');
  }, 60_000);
});
