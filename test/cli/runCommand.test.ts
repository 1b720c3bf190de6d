/**
 * `run` through the real program (`cogito -p` against the scripted server) with the real
 * bubblewrap sandbox: a command's output and exit code reach the model; writes outside the
 * workspace and into `.git/hooks`, and a connection to a loopback server, are refused by the
 * sandbox; a command that never ends is killed at its limit and by an interrupt, leaving no
 * process; `/undo` puts back what a command deleted; without a sandbox `run` is refused with
 * the fix.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitUntil } from '../helpers/waitFor.js';

type Sent = { role: string; content: string }[];
const call = (command: string): string => `[TOOL] run(${JSON.stringify(command)}) [/TOOL]`;
const hasBwrap = existsSync('/usr/bin/bwrap') || process.env.CI === 'true';

/** Host pids of processes whose command line holds `marker`. */
/**
 * A Node binary the sandbox can see: its /tmp is private, so a Node installed under /tmp (CI's
 * Node 24) is not there; take the first other `node` on PATH.
 */
function nodeInSandbox(): string {
  if (!process.execPath.startsWith(os.tmpdir())) return process.execPath;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    if (dir !== '' && !dir.startsWith(os.tmpdir()) && existsSync(candidate)) return candidate;
  }
  return 'node';
}

/** The processes running `sleep <marker>` (not the shells or bwrap that name it too). */
function sleepsWith(marker: string): number[] {
  return pidsWith(marker).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0');
    } catch {
      return false;
    }
  });
}

function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(marker) && Number(name) !== process.pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux' && hasBwrap)('run (-p, real bubblewrap)', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: Record<string, string>;
  const args = (prompt: string, ...more: string[]): string[] => [
    '-p',
    prompt,
    '--workspace',
    ws,
    '--home',
    home,
    ...more,
  ];
  const config = (run: object = {}): Promise<void> =>
    writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ approval: { process: 'auto' }, run }),
    );
  /** The result the model got in its second request. */
  const resultSent = (): string => {
    const msgs = server.requests[1]!.body.messages as Sent;
    return msgs.at(-1)!.content;
  };

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-run-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-run-home-'));
    env = { COGITO_API_KEY: 'sk-test', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it("a command's output and exit code reach the model's next request", async () => {
    await config();
    await writeFile(path.join(ws, 'data.txt'), 'one\ntwo\n');
    server.push(
      { kind: 'stream', content: call('wc -l data.txt; echo "to stderr" >&2; exit 3') },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    const run = runCogito(args('count the lines'), env);
    expect(await run.code).toBe(0);
    const result = resultSent();
    expect(result).toContain('2 data.txt');
    expect(result).toContain('to stderr');
    expect(result).toContain('exit code 3');
    expect(result).toContain('sandboxed');
  }, 60_000);

  it('refuses a write outside the workspace, into .git/hooks and a loopback connection', async () => {
    await config();
    // On disk, not under /tmp (the sandbox has its own /tmp): the write meets a read-only mount.
    const outside = await mkdtemp(
      path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'cogito-run-outside-'),
    );
    await mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    let connections = 0;
    const listener = net.createServer((s) => {
      connections += 1;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as net.AddressInfo).port;
    const connect = `require('net').connect(${port},'127.0.0.1').on('connect',()=>console.log('CONNECTED')).on('error',(e)=>console.log('NETERR',e.code))`;
    const command = [
      `echo pwned > ${outside}/escaped.txt`,
      'echo "#!/bin/sh" > .git/hooks/pre-commit',
      `${JSON.stringify(nodeInSandbox())} -e ${JSON.stringify(connect)}`,
      'echo inside > ok.txt',
    ].join('; ');
    try {
      server.push(
        { kind: 'stream', content: call(command) },
        { kind: 'stream', content: '[WAIT]' },
      );
      const run = runCogito(args('try to escape'), env);
      expect(await run.code).toBe(0);
      const result = resultSent();
      expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
      expect(existsSync(path.join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(result).toContain(`${outside}/escaped.txt: Read-only file system`);
      expect(result).toContain('.git/hooks/pre-commit: Read-only file system');
      expect(result).toMatch(/NETERR (ENETUNREACH|ECONNREFUSED)/);
      expect(result).not.toMatch(/^CONNECTED$/m);
      expect(connections).toBe(0);
      // The workspace itself is writable.
      expect(await readFile(path.join(ws, 'ok.txt'), 'utf8')).toBe('inside\n');
    } finally {
      listener.close();
      await rm(outside, { recursive: true, force: true });
    }
  }, 60_000);

  it('kills a command that never ends at its time limit, with everything it started', async () => {
    await config({ timeoutMs: 1500 });
    const marker = '98765.4321';
    server.push(
      {
        kind: 'stream',
        content: call(`sleep ${marker} & echo started > started.txt; sleep ${marker}`),
      },
      { kind: 'stream', content: '[WAIT]' },
    );
    const run = runCogito(args('wait forever'), env);
    // The limit may end the command before a poll sees its processes, so the proof that it
    // ran is the file it wrote between starting the two sleeps.
    expect(await run.code).toBe(0);
    expect(existsSync(path.join(ws, 'started.txt'))).toBe(true);
    expect(resultSent()).toMatch(/did not finish within 1\.5 s/);
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
  }, 60_000);

  it('an interrupt kills the running command and all it started', async () => {
    await config();
    const marker = '87654.321';
    server.push({ kind: 'stream', content: call(`sleep ${marker} & sleep ${marker}`) });
    const run = runCogito(args('wait forever'), env);
    await waitUntil(() => sleepsWith(marker).length >= 2, 'both sleeps running', 20_000);
    run.kill('SIGINT');
    expect(await run.code).toBe(130);
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
  }, 60_000);

  it('a background command is read, and stopped with the program: no process of it is left', async () => {
    await config();
    const marker = '76501.234';
    server.push(
      {
        kind: 'stream',
        content: `[TOOL] run(${JSON.stringify(`echo up; setsid sleep ${marker} & sleep ${marker}`)}, null, true) [/TOOL]`,
      },
      { kind: 'stream', content: '[TOOL] run_output("bg1") [/TOOL]' },
      // The last reply streams slowly, so the program (and the commands it started) lives long
      // enough for the check below even on a loaded machine; the run then ends at once.
      { kind: 'stream', content: ['Left it ', 'running. ', '[WAIT]'], chunkDelayMs: 2000 },
    );
    const run = runCogito(args('start a server'), env);
    await waitUntil(() => sleepsWith(marker).length >= 2, 'both sleeps running', 20_000);
    expect(await run.code).toBe(0);
    const started = (server.requests[1]!.body.messages as Sent).at(-1)!.content;
    expect(started).toMatch(/started in the background as bg1/);
    const read = (server.requests[2]!.body.messages as Sent).at(-1)!.content;
    expect(read).toMatch(/bg1: \$ echo up/);
    // The program has exited: neither the sleep nor the one that left with setsid remains.
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
  }, 60_000);

  it('/undo puts back a file a command deleted and removes what it made', async () => {
    await config();
    await writeFile(path.join(ws, 'keep.txt'), 'precious');
    await writeFile(path.join(ws, 'edit.txt'), 'old');
    server.push(
      {
        kind: 'stream',
        content: call('rm keep.txt && echo new > edit.txt && mkdir -p d/e && echo z > d/e/z.txt'),
      },
      { kind: 'stream', content: 'Cleaned. [WAIT]' },
    );
    const first = runCogito(args('clean up'), env);
    expect(await first.code).toBe(0);
    expect(existsSync(path.join(ws, 'keep.txt'))).toBe(false);
    expect(resultSent()).toMatch(/deleted keep\.txt/);
    const [id] = await readdir(path.join(home, 'data', 'sessions'));

    const changes = runCogito(args('/changes', '--session', id!), env);
    expect(await changes.code).toBe(0);
    expect(changes.stdout() + changes.stderr()).toMatch(/keep\.txt/);

    const undo = runCogito(args('/undo', '--session', id!), env);
    expect(await undo.code).toBe(0);
    expect(await readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('precious');
    expect(await readFile(path.join(ws, 'edit.txt'), 'utf8')).toBe('old');
    expect(existsSync(path.join(ws, 'd'))).toBe(false);
  }, 60_000);

  it('with no sandbox available, run is refused with the fix and nothing runs', async () => {
    await config({ bwrapPath: '/nonexistent/bwrap' });
    server.push(
      { kind: 'stream', content: call('echo ran > ran.txt') },
      { kind: 'stream', content: '[WAIT]' },
    );
    const run = runCogito(args('try'), env);
    expect(await run.code).toBe(0);
    const result = resultSent();
    expect(result).toMatch(/run is refused: no command sandbox can start/);
    expect(result).toContain('apt install bubblewrap');
    expect(result).toContain('"sandbox": "off"');
    expect(existsSync(path.join(ws, 'ran.txt'))).toBe(false);
  }, 60_000);
});
