/**
 * The soak of the background agent: `cogito start` in the folder (the production build, the
 * real detached daemon), then one user message after another as `cogito send --wait` sends
 * them (its own code, `runSend`, called here rather than spawned: a new connection to the
 * agent's socket per message, the answer awaited), until the scripted server has answered
 * `total` requests. Same model script and checkpoints as the screen run (`soakScreen.ts`).
 */
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { startScriptedServer } from '../../test/helpers/scriptedServer.js';
import { readEntry } from '../../src/daemon/registry.js';
import { runSend } from '../../src/daemon/sendCommand.js';
import { COGITO, makeHome, type BenchHome } from './appEnv.js';
import { activate, freePort } from './inspector.js';
import { checkpointTaker, checkpointsFor, readCheckpoint } from './soakReadings.js';
import { load1, userMessage, type SoakRun } from './soakScreen.js';
import { soakScript } from './soakScript.js';

function cogito(home: BenchHome, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(COGITO[0]!, [...COGITO.slice(1), ...args], {
      cwd: home.workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`cogito ${args[0]} (${code}): ${out}`)),
    );
  });
}

export async function runAgentSoak(
  total: number,
  config: Record<string, unknown>,
  /** A user's pause before each message (0: sent at once, turns back to back). */
  pauseMs = 0,
): Promise<SoakRun> {
  const server = await startScriptedServer();
  const home = makeHome(server.url, config, 'cogito-soak-agent-');
  const port = await freePort();
  const env = home.env({ NODE_OPTIONS: `--inspect-port=127.0.0.1:${port}` });
  let pid = 0;
  let requests = 0;
  const startedAt = performance.now();
  const taker = checkpointTaker(checkpointsFor(total), (n) =>
    readCheckpoint(pid, port, n, startedAt, load1),
  );
  server.setDefault(
    soakScript(() => {}, {
      userTurns: true,
      onRequest: (n) => {
        requests = n;
        taker.onRequest(n);
      },
    }),
  );
  let finished = false;
  void taker.reached.then(() => (finished = true));
  let turns = 0;
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  let problems = '';
  const stderr = new Writable({
    write: (c: Buffer, _e, cb) => {
      problems = (problems + c.toString()).slice(-2000);
      cb();
    },
  });
  try {
    await cogito(home, ['start'], env);
    const entry = readEntry(home.home, home.workspace);
    if (!entry) throw new Error('cogito start: no registry entry for the folder');
    pid = entry.pid;
    await activate(pid, port);
    while (!finished) {
      if (pauseMs > 0 && turns > 0) await new Promise((r) => setTimeout(r, pauseMs));
      turns += 1;
      const code = await runSend(
        {
          name: 'send',
          text: userMessage(turns),
          wait: true,
          timeoutMs: 120_000,
          steer: false,
          workspace: home.workspace,
          home: home.home,
        },
        { env, stdout: sink, stderr, cwd: home.workspace },
      );
      if (code !== 0) throw new Error(`send at turn ${turns} (${requests} requests): ${problems}`);
    }
    const checkpoints = await taker.done();
    return {
      checkpoints,
      turns,
      requests,
      seconds: Math.round((performance.now() - startedAt) / 100) / 10,
    };
  } finally {
    await cogito(home, ['stop'], env).catch((err: Error) => {
      process.stderr.write(`${err.message}\n`);
      if (pid) process.kill(pid, 'SIGKILL');
    });
    await server.close();
    home.cleanup();
  }
}
