/**
 * Cogito beside qwen-code 0.15.10 in tmux 120×40, same scripted server, same machine,
 * interleaved rounds (the order flips each round): the terminal's own echo floor, first
 * paint, keystroke echo idle and while a reply streams, Enter → request, bytes per streamed
 * reply, Esc → connection closed, RSS. Run by `npm run bench -- --peers` (or
 * `npx tsx bench/peers.ts`), never by a plain `npm run bench`: it installs qwen-code from
 * the npm registry into a temporary folder (`lib/peerPrograms.ts`).
 *
 * Each program runs in a tmux server of its own, read through control mode (`lib/tmux.ts`):
 * an output time is when tmux read the bytes from the pane. The floor is measured the same
 * way in the same pane just before the program starts: `cat` on the terminal in its usual
 * (cooked) mode, where the kernel echoes each key, so it is the path key → tmux → pane →
 * tmux → this process with no program in it. "Echo ≤ floor + 5 ms" compares with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../test/helpers/scriptedServer.js';
import { fromPerf, monoNow } from './lib/clock.js';
import {
  QWEN_VERSION,
  cogitoPeer,
  installQwen,
  qwenPeer,
  requestWith,
  treeRss,
  type Peer,
} from './lib/peerPrograms.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { mb, rssOf } from './lib/rss.js';
import { bytes, jitter, ms, sleep, summarize } from './lib/stats.js';
import { TmuxPane } from './lib/tmux.js';
import { markdownChunks } from './reply.js';

const COLS = 120;
const ROWS = 40;
/** Typed first and not timed, so every timed key's echo is a text seen nowhere else. */
const PREFIX = 'QJ';
const KEYS = 'zxkvqzxkvq';

interface Round {
  floorMs: number[];
  firstPaintMs: number;
  echoIdleMs: number[];
  echoStreamingMs: number[];
  enterToRequestMs: number;
  replyBytes: number;
  escToCloseMs: number;
  rssMB: number;
}

/**
 * Types the keys one at a time, each 30–90 ms after the last echo; returns each key's time
 * from send to the echo. `line`: the echo is the input line redrawn (the text typed so far);
 * otherwise (the floor) just the key.
 */
async function typeAndTime(pane: TmuxPane, line: boolean, timeoutMs = 5000): Promise<number[]> {
  const out: number[] = [];
  if (line) await pane.keys(PREFIX);
  let typed = PREFIX;
  for (const key of KEYS) {
    await sleep(jitter(30, 90));
    typed += key;
    const expected = line ? typed : key;
    const pressed = await pane.keys(key);
    const seen = await pane.waitFor((s) => s.includes(expected), `echo of ${key}`, {
      from: pane.indexAfter(pressed),
      timeoutMs,
    });
    out.push(seen.t - pressed);
  }
  if (line) await pane.keys('\x7f'.repeat(typed.length));
  return out;
}

/** Sends `text` and Enter until a request carries it (qwen-code ignores Enter at first). */
async function sendMessage(pane: TmuxPane, server: ScriptedServer, text: string) {
  await pane.keys(text);
  await sleep(200);
  const from = server.requests.length;
  for (let attempt = 0; attempt < 6; attempt++) {
    const entered = await pane.keys('\r');
    const index = await requestWith(server, from, text, 5000).catch(() => -1);
    if (index !== -1) return { index, entered };
  }
  throw new Error(`no request for "${text}" after 6 presses of Enter`);
}

/** Answers by the last user message, so a program's own side requests take no scripted reply. */
function routeReplies(server: ScriptedServer): void {
  server.setDefault((req) => {
    const msgs = (req.body.messages ?? []) as { role: string; content: unknown }[];
    const last = JSON.stringify(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    if (last.includes('again'))
      return {
        kind: 'stream',
        content: Array.from({ length: 3000 }, () => 'ha '),
        chunkDelayMs: 10,
      };
    if (last.includes('hello'))
      return { kind: 'stream', content: markdownChunks(200), chunkDelayMs: 10 };
    return { kind: 'stream', content: 'ok' };
  });
}

/** One program, one round: floor, start, type, send, stream, type while streaming, Esc. */
async function runRound(peer: Peer): Promise<Round> {
  const server = await startScriptedServer();
  routeReplies(server);
  const launch = peer.launch(server);
  const pane = await TmuxPane.open({ env: launch.env, cwd: launch.cwd, cols: COLS, rows: ROWS });
  try {
    const floorMs = await typeAndTime(pane, false);
    await pane.run(launch.cmd, launch.cwd);
    const painted = await pane.waitFor((s) => peer.ready.test(s), `${peer.name} ready`, {
      timeoutMs: 60_000,
    });
    const firstPaintMs = painted.t - pane.spawnedAt;
    await sleep(1000);
    const echoIdleMs = await typeAndTime(pane, true);
    await sleep(300);
    // The standard streamed reply answers "hello".
    const hello = await sendMessage(pane, server, 'hello');
    const req = server.requests[hello.index]!;
    const enterToRequestMs = fromPerf(req.receivedAt) - hello.entered;
    // waitForClose rejects once the response has completed: here that is the awaited end.
    await server.waitForClose(hello.index, 30_000).catch(() => undefined);
    // The reply is all on screen once the program has stopped drawing (a busy machine lags).
    await pane.settled(1000, 10_000, monoNow);
    const replyBytes = Buffer.byteLength(pane.text(pane.indexAfter(fromPerf(req.receivedAt))));
    // Whatever the program does after a reply (qwen-code checks who speaks next) settles first.
    await sleep(1500);
    // A slow reply: typed into while it streams, then interrupted with Esc.
    const again = await sendMessage(pane, server, 'again');
    await pane.waitFor((s) => s.includes('ha ha'), 'the slow reply', {
      from: pane.indexAfter(fromPerf(server.requests[again.index]!.receivedAt)),
      timeoutMs: 20_000,
    });
    await sleep(jitter(100, 300));
    const echoStreamingMs = await typeAndTime(pane, true).catch(() => [NaN]);
    await sleep(jitter(100, 300));
    const esc = await pane.keys('\x1b');
    const cut = await server.waitForClose(again.index, 10_000);
    const escToCloseMs = fromPerf(cut.closedAt!) - esc;
    const rssMB = mb(treeRss(await pane.pid(), rssOf));
    return {
      floorMs,
      firstPaintMs,
      echoIdleMs,
      echoStreamingMs,
      enterToRequestMs,
      replyBytes,
      escToCloseMs,
      rssMB,
    };
  } catch (err) {
    const tail = JSON.stringify(pane.text(Math.max(0, pane.chunks.length - 5)).slice(-600));
    throw new Error(`${peer.name}: ${(err as Error).message}\nlast bytes: ${tail}`);
  } finally {
    await pane.close();
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

const ROWS_MEASURED: [string, (r: Round) => number[], (x: number) => string][] = [
  ['terminal floor: key → echo by `cat` (same pane)', (r) => r.floorMs, ms],
  ['first paint', (r) => [r.firstPaintMs], ms],
  ['keystroke echo, idle', (r) => r.echoIdleMs, ms],
  ['keystroke echo, while a reply streams', (r) => r.echoStreamingMs, ms],
  ['Enter → request at the server', (r) => [r.enterToRequestMs], ms],
  ['bytes per streamed reply (200 chunks)', (r) => [r.replyBytes], bytes],
  ['Esc → connection closed', (r) => [r.escToCloseMs], ms],
  ['RSS after the replies', (r) => [r.rssMB], (x) => `${x.toFixed(1)} MB`],
];

function report(results: Map<string, Round[]>, list: Peer[], rounds: number): BenchResult {
  const med = (xs: number[]): number => summarize(xs.filter(Number.isFinite)).p50;
  const of = (p: Peer, f: (r: Round) => number[]): number => med(results.get(p.name)!.flatMap(f));
  const [cogito, qwen] = list as [Peer, Peer];
  const metrics: Metric[] = ROWS_MEASURED.map(([name, f, fmt]) => {
    const a = of(cogito, f);
    const b = of(qwen, f);
    return {
      name,
      value: `cogito ${fmt(a)} · qwen ${fmt(b)} · ratio ${(b / a).toFixed(2)}×`,
      raw: b / a,
    };
  });
  const floor = med([...results.values()].flat().flatMap((r) => r.floorMs));
  for (const [label, f] of [
    ['idle', (r: Round) => r.echoIdleMs],
    ['while streaming', (r: Round) => r.echoStreamingMs],
  ] as const) {
    const a = of(cogito, f);
    const b = of(qwen, f);
    metrics.push(
      {
        name: `echo ${label}: median ≤ terminal floor + 5 ms`,
        value: `${ms(a)} vs floor ${ms(floor)}`,
        target: '≤ floor + 5 ms',
        met: a <= floor + 5,
      },
      {
        name: `echo ${label}: at least 1.5× faster than qwen-code`,
        value: `${ms(a)} vs ${ms(b)} (${(b / a).toFixed(2)}×)`,
        target: '≥ 1.5×',
        met: b / a >= 1.5,
      },
    );
  }
  const bytesA = of(cogito, (r) => [r.replyBytes]);
  const bytesB = of(qwen, (r) => [r.replyBytes]);
  metrics.push({
    name: 'bytes per reply: ≤ half of qwen-code and ≤ 250 KB',
    value: `${bytes(bytesA)} vs ${bytes(bytesB)}`,
    target: '≤ 0.5× and ≤ 250 KB',
    met: bytesA <= bytesB / 2 && bytesA <= 250_000,
  });
  return {
    name: 'peers',
    title: `Cogito and qwen-code ${QWEN_VERSION} in tmux (${rounds} interleaved rounds, ${COLS}×${ROWS})`,
    metrics,
    notes: [
      `Medians over the rounds (echo: ${KEYS.length} keys per round and state). Ratio = qwen / cogito: above 1 means Cogito is faster or smaller.`,
      'tmux control mode: a key is timed from the send-keys command written to tmux, an echo to the %output line that holds it; the floor is `cat` echoing in the same pane.',
      'RSS is the program and every process below it (qwen-code may run a child).',
    ],
    details: Object.fromEntries(results),
  };
}

await mainFor(peers, import.meta.url);
