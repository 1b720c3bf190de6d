/**
 * Cogito beside qwen-code 0.15.10, same scripted server, same machine, interleaved rounds:
 * first paint, keystroke echo, Enter → request, bytes per streamed reply, Esc → connection
 * closed, RSS. Run by `npm run bench -- --peers` (or `npx tsx bench/peers.ts`), never by a
 * plain `npm run bench`: it installs qwen-code from the npm registry into a temporary folder
 * (the only network use; everything else is loopback), with its own HOME and a settings file
 * written before its first start that turns off auto-update and telemetry.
 *
 * Both programs run in the pseudo-terminal helper the other terminal benchmarks use
 * (bench/lib/pty.py, 120×40), which timestamps every read of their output.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../test/helpers/scriptedServer.js';
import { COGITO, makeHome } from './lib/appEnv.js';
import { fromPerf } from './lib/clock.js';
import { PtyApp } from './lib/ptyApp.js';
import { waitFor } from '../test/helpers/waitForFrame.js';

/**
 * The index of the first chat request from `from` on whose messages mention `text`: qwen-code
 * makes requests of its own (follow-up checks), so request numbers alone do not say which
 * one answers the user's message.
 */
async function requestWith(
  server: ScriptedServer,
  from: number,
  text: string,
  timeoutMs = 20_000,
): Promise<number> {
  let found = -1;
  await waitFor(
    () => {
      for (let i = from; i < server.requests.length; i++) {
        if (JSON.stringify(server.requests[i]!.body.messages ?? '').includes(text)) found = i;
        if (found !== -1) return true;
      }
      return false;
    },
    `a request carrying "${text}"`,
    { timeoutMs, intervalMs: 2 },
  );
  return found;
}
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { mb, rssOf } from './lib/rss.js';
import { markdownChunks } from './reply.js';
import { bytes, ms, sleep, summarize } from './lib/stats.js';

const QWEN_VERSION = '0.15.10';
const COLS = 120;
const ROWS = 40;
const ECHO_KEYS = 'wxyzv';

interface Launch {
  cmd: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  cleanup(): void;
}

interface Peer {
  name: string;
  /** Text on screen once the program waits for input. */
  ready: RegExp;
  launch(server: ScriptedServer): Launch;
}

interface Round {
  firstPaintMs: number;
  echoMs: number[];
  enterToRequestMs: number;
  replyBytes: number;
  escToCloseMs: number;
  rssMB: number;
}

/** Installs qwen-code into `dir` (npm registry), returning its CLI script. */
function installQwen(dir: string): string {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      `@qwen-code/qwen-code@${QWEN_VERSION}`,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 },
  );
  return path.join(dir, 'node_modules', '@qwen-code', 'qwen-code', 'cli.js');
}

function qwenPeer(cli: string): Peer {
  return {
    name: `qwen-code ${QWEN_VERSION}`,
    ready: /Type your message/i,
    launch(server) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-qwen-'));
      const ws = path.join(dir, 'ws');
      fs.mkdirSync(path.join(dir, '.qwen'), { recursive: true });
      fs.mkdirSync(ws);
      // Written before its first start: no update check, no usage statistics, no telemetry.
      const settings = {
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      };
      fs.writeFileSync(path.join(dir, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2));
      return {
        cmd: [process.execPath, cli, '--auth-type', 'openai'],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: dir,
          TERM: 'xterm-256color',
          LANG: 'C.UTF-8',
          OPENAI_BASE_URL: server.url,
          OPENAI_API_KEY: 'sk-bench',
          OPENAI_MODEL: 'bench-model',
        },
        cwd: ws,
        cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

const cogitoPeer: Peer = {
  name: 'cogito',
  ready: /Paused[\s\S]*quit/,
  launch(server) {
    const home = makeHome(server.url, {}, 'peers-cogito-');
    return {
      cmd: [...COGITO, '--paused'],
      env: home.env(),
      cwd: home.workspace,
      cleanup: () => home.cleanup(),
    };
  },
};

/** One program, one round: start, type, send, stream, interrupt, quit. */
async function runRound(peer: Peer): Promise<Round> {
  const server = await startScriptedServer();
  // Answers by the last user message, so a program's own side requests cannot take the
  // scripted replies: "hello" gets the standard reply, "again" a slow one to interrupt.
  server.setDefault((req) => {
    const msgs = (req.body.messages ?? []) as { role: string; content: unknown }[];
    const last = JSON.stringify(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    if (last.includes('again'))
      return {
        kind: 'stream',
        content: Array.from({ length: 2000 }, () => 'slow '),
        chunkDelayMs: 10,
      };
    if (last.includes('hello'))
      return { kind: 'stream', content: markdownChunks(200), chunkDelayMs: 10 };
    return { kind: 'stream', content: 'ok' };
  });
  const launch = peer.launch(server);
  const app = new PtyApp(launch.cmd, { env: launch.env, cwd: launch.cwd, cols: COLS, rows: ROWS });
  try {
    await app.ready();
    const painted = await app.waitFor((s) => peer.ready.test(s), `${peer.name} ready`, {
      timeoutMs: 60_000,
    });
    const firstPaintMs = painted.t - app.spawnedAt;
    await sleep(500);
    const echoMs: number[] = [];
    for (const key of ECHO_KEYS) {
      const from = app.chunks.length;
      const pressed = await app.send(key);
      const seen = await app.waitFor((s) => s.includes(key), `echo of ${key}`, {
        from,
        timeoutMs: 5000,
      });
      echoMs.push(seen.t - pressed);
      await sleep(40 + Math.random() * 60);
    }
    for (let i = 0; i < ECHO_KEYS.length; i++) await app.send('\x7f');
    await sleep(300);
    // The standard streamed reply answers the first message.
    await app.send('hello');
    await sleep(200);
    // qwen-code shows its prompt before it has finished initializing and ignores Enter until
    // then: press again (the time counts from the Enter that was taken).
    const from = server.requests.length;
    let entered = 0;
    let index = -1;
    for (let attempt = 0; attempt < 6 && index === -1; attempt++) {
      entered = await app.send('\r');
      index = await requestWith(server, from, 'hello', 5000).catch(() => -1);
    }
    if (index === -1) throw new Error('no request for the message after 6 presses of Enter');
    const req = server.requests[index]!;
    const enterToRequestMs = fromPerf(req.receivedAt) - entered;
    // waitForClose rejects once the response has completed: here that is the awaited end.
    await server.waitForClose(index, 30_000).catch(() => undefined);
    await sleep(500);
    const replyBytes = Buffer.byteLength(app.text(app.indexAfter(fromPerf(req.receivedAt))));
    // Whatever the program does after a reply (qwen-code checks who speaks next) settles first.
    await sleep(1500);
    // A slow reply, interrupted with Esc mid-stream.
    await app.send('again');
    await sleep(200);
    const n0 = server.requests.length;
    await app.send('\r');
    const n = await requestWith(server, n0, 'again');
    const slow = server.requests[n]!;
    await app.waitFor((s) => s.includes('slow'), 'the slow reply', {
      raw: true,
      from: app.indexAfter(fromPerf(slow.receivedAt)),
      timeoutMs: 20_000,
    });
    await sleep(100 + Math.random() * 200);
    const esc = await app.send('\x1b');
    const cut = await server.waitForClose(n, 10_000);
    const escToCloseMs = fromPerf(cut.closedAt!) - esc;
    const rssMB = mb(rssOf(app.pid));
    return { firstPaintMs, echoMs, enterToRequestMs, replyBytes, escToCloseMs, rssMB };
  } catch (err) {
    const tail = JSON.stringify(app.text(Math.max(0, app.chunks.length - 5)).slice(-600));
    throw new Error(`${peer.name}: ${(err as Error).message}\nlast bytes: ${tail}`);
  } finally {
    app.signal('SIGTERM');
    await app.stop('SIGKILL', 3000).catch(() => undefined);
    await server.close();
    launch.cleanup();
  }
}

export const peers: Bench = {
  name: 'peers',
  async run({ quick }): Promise<BenchResult> {
    const rounds = quick ? 1 : 3;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-install-'));
    try {
      const qwen = qwenPeer(process.env.QWEN_CLI ?? installQwen(dir));
      const list = [cogitoPeer, qwen];
      const results = new Map<string, Round[]>(list.map((p) => [p.name, []]));
      for (let r = 0; r < rounds; r++) {
        // Interleaved, and the order flips each round, so machine load falls on both alike.
        const order = r % 2 === 0 ? list : [...list].reverse();
        for (const p of order) results.get(p.name)!.push(await runRound(p));
      }
      return report(results, list, rounds);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

function report(results: Map<string, Round[]>, list: Peer[], rounds: number): BenchResult {
  const med = (xs: number[]): number => summarize(xs).p50;
  const of = (p: Peer, f: (r: Round) => number[]): number => med(results.get(p.name)!.flatMap(f));
  const rows: [string, (r: Round) => number[], (x: number) => string][] = [
    ['first paint', (r) => [r.firstPaintMs], ms],
    ['keystroke echo, idle', (r) => r.echoMs, ms],
    ['Enter → request at the server', (r) => [r.enterToRequestMs], ms],
    ['bytes per streamed reply (200 chunks)', (r) => [r.replyBytes], bytes],
    ['Esc → connection closed', (r) => [r.escToCloseMs], ms],
    ['RSS after the replies', (r) => [r.rssMB], (x) => `${x.toFixed(1)} MB`],
  ];
  const [cogito, qwen] = list as [Peer, Peer];
  const metrics: Metric[] = rows.map(([name, f, fmt]) => {
    const a = of(cogito, f);
    const b = of(qwen, f);
    return {
      name,
      value: `cogito ${fmt(a)} · qwen ${fmt(b)} · ratio ${(b / a).toFixed(2)}×`,
      raw: b / a,
    };
  });
  const bytesA = of(cogito, (r) => [r.replyBytes]);
  const bytesB = of(qwen, (r) => [r.replyBytes]);
  metrics.push({
    name: 'bytes per reply: ≤ half of qwen-code and ≤ 250 KB',
    value: `${bytes(bytesA)} vs ${bytes(bytesB)}`,
    target: '≤ 0.5× and ≤ 250 KB',
    met: bytesA <= bytesB / 2 && bytesA <= 250_000,
  });
  const echoA = of(cogito, (r) => r.echoMs);
  const echoB = of(qwen, (r) => r.echoMs);
  metrics.push({
    name: 'echo at least 1.5× faster than qwen-code',
    value: `${ms(echoA)} vs ${ms(echoB)}`,
    target: '≥ 1.5×',
    met: echoB / echoA >= 1.5,
  });
  return {
    name: 'peers',
    title: `Cogito and qwen-code ${QWEN_VERSION} (${rounds} interleaved rounds, ${COLS}×${ROWS})`,
    metrics,
    notes: [
      'Medians over the rounds (echo: 5 keys per round). Ratio = qwen / cogito: above 1 means Cogito is faster or smaller.',
      'Measured in the pseudo-terminal helper (bench/lib/pty.py), not tmux: it timestamps every read of the output.',
    ],
    details: Object.fromEntries(results),
  };
}

await mainFor(peers, import.meta.url);
