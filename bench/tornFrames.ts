/**
 * torn frames: the real program (`node bin/cogito.js`) in tmux 120×40 while the scripted
 * server streams replies — the standard reply (`markdownChunks(200)`, 10 ms apart) and long
 * ones (1,000 chunks, 5 ms apart) in turn — with `capture-pane -p` taken every 1–4 ms until
 * 2,000 captures fell inside a stream. A capture is torn when it shows a screen Cogito never
 * drew: it equals none of the screens rebuilt from the bytes it wrote (`lib/frameReplay.ts`),
 * or it lacks what every frame has (the status bar on row 1, full-width pane rules, the input
 * box, the key hints on the last row).
 */
import path from 'node:path';
import { startScriptedServer } from '../test/helpers/scriptedServer.js';
import { COGITO, ROOT, makeHome } from './lib/appEnv.js';
import { frameFaults, replayFrames, screenKey } from './lib/frameReplay.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { bytes, jitter, sleep } from './lib/stats.js';
import { TmuxPane } from './lib/tmux.js';
import { markdownChunks } from './reply.js';

const COLS = 120;
const ROWS = 40;

/** The replies in turn: the standard one, then a long one that scrolls the pane far. */
function replyFor(i: number): { kind: 'stream'; content: string[]; chunkDelayMs: number } {
  return i % 2 === 0
    ? { kind: 'stream', content: markdownChunks(200), chunkDelayMs: 10 }
    : { kind: 'stream', content: markdownChunks(1000), chunkDelayMs: 5 };
}

interface StandIn {
  size: number;
  torn: number;
  of: number;
}

/** Captures the pane every 1–4 ms while `going()` holds, until `out` has `wanted`. */
async function captureWhile(
  pane: TmuxPane,
  going: () => boolean,
  out: string[][],
  wanted: number,
): Promise<void> {
  while (going() && out.length < wanted) {
    const c = await pane.capture();
    if (going()) out.push(c.lines);
    await sleep(jitter(1, 4));
  }
}

/**
 * The same captures of a stand-in program drawing whole-screen frames of `size` bytes, one
 * write each (`lib/fatFrames.mjs`): how many tear in this terminal at that size.
 */
async function standIn(size: number, wanted: number): Promise<StandIn> {
  const pane = await TmuxPane.open({ env: { PATH: process.env.PATH, LANG: 'C.UTF-8' }, cwd: ROOT });
  try {
    await pane.run(
      [process.execPath, path.join(ROOT, 'bench/lib/fatFrames.mjs'), String(size)],
      ROOT,
    );
    await pane.waitFor((s) => s.includes('3:1 '), 'the stand-in frames');
    const caps: string[][] = [];
    await captureWhile(pane, () => true, caps, wanted);
    const screens = await replayFrames(pane.text(), COLS, ROWS);
    return {
      size,
      torn: caps.filter((c) => !screens.has(screenKey(c, ROWS))).length,
      of: caps.length,
    };
  } finally {
    await pane.close();
  }
}

/** Sizes of the frames (bytes between the sync markers, markers included). */
function frameSizes(output: string): number[] {
  return output
    .split('\x1b[?2026h')
    .slice(1)
    .map((f) => Buffer.byteLength(f) + 8);
}

export const tornFrames: Bench = {
  name: 'tornFrames',
  async run({ quick }): Promise<BenchResult> {
    const wanted = quick ? 300 : 2000;
    const server = await startScriptedServer();
    server.setDefault((req) => replyFor(req.index));
    const home = makeHome(server.url, { maxAutonomousCycles: 0 }, 'torn-');
    const pane = await TmuxPane.open({ env: home.env(), cwd: home.workspace });
    const captures: string[][] = [];
    let replies = 0;
    try {
      await pane.run([...COGITO, '--paused'], home.workspace);
      await pane.waitFor((s) => /Paused[\s\S]*quit/.test(s), 'first frame', { timeoutMs: 60_000 });
      while (captures.length < wanted) {
        const n = replies++;
        await pane.keys(`message ${n}`);
        await sleep(50);
        const sent = await pane.keys('\r');
        const req = await server.waitForRequest(n, 20_000);
        await pane.waitFor((s) => s.includes('Findings'), 'the reply', {
          from: pane.indexAfter(sent),
          timeoutMs: 20_000,
        });
        // Only captures taken and answered while the reply streams count.
        await captureWhile(pane, () => !req.completed, captures, wanted);
        // The reply is saved and the screen settles before the next message.
        await sleep(500);
      }
    } finally {
      await pane.close();
      await server.close();
      home.cleanup();
    }
    const controls = [];
    for (const size of [1900, 8000]) controls.push(await standIn(size, quick ? 200 : 500));
    return await report(pane, captures, replies, controls);
  },
};

async function report(
  pane: TmuxPane,
  captures: string[][],
  replies: number,
  controls: StandIn[],
): Promise<BenchResult> {
  const output = pane.text();
  const screens = await replayFrames(output, COLS, ROWS);
  const unknown = captures.filter((c) => !screens.has(screenKey(c, ROWS)));
  const faulty = captures
    .map((c) => ({ c, faults: frameFaults(c, COLS) }))
    .filter((x) => x.faults.length > 0);
  const torn = new Set([...unknown, ...faulty.map((x) => x.c)]);
  const sizes = frameSizes(output).sort((a, b) => a - b);
  const big = sizes.filter((s) => s > 2048).length;
  return {
    name: 'tornFrames',
    title: `torn frames (${captures.length} captures over ${replies} streamed replies, tmux ${COLS}×${ROWS})`,
    metrics: [
      {
        name: 'torn frames in the captures',
        value: `${torn.size} of ${captures.length}`,
        raw: torn.size,
        target: '0',
        met: torn.size === 0,
      },
      {
        name: 'captures that equal no frame drawn',
        value: String(unknown.length),
        raw: unknown.length,
      },
      {
        name: 'captures missing a mark of a whole frame',
        value: String(faulty.length),
        raw: faulty.length,
      },
      {
        name: 'frames written',
        value: `${sizes.length} (p50 ${bytes(sizes[sizes.length >> 1] ?? 0)}, max ${bytes(sizes.at(-1) ?? 0)}, over 2 KB: ${big})`,
        raw: sizes.length,
      },
      ...controls.map((c) => ({
        name: `stand-in program, whole-screen frames of ${bytes(c.size)} (one write each)`,
        value: `${c.torn} torn of ${c.of}`,
        raw: c.torn,
      })),
    ],
    notes: [
      'Captures go through tmux control mode (capture-pane -p), 1–4 ms apart, only while a reply streams.',
      'tmux 3.3 ignores ESC[?2026h in a pane, and a write to a terminal reaches it in pieces of at most 2,048 bytes (Linux splits tty writes so): a frame over 2 KB, written whole, can still be parsed in two reads with a capture between (see the stand-in rows).',
    ],
    details: {
      frameBytes: sizes,
      unknownSamples: unknown.slice(0, 3),
      faultSamples: faulty.slice(0, 3).map((x) => ({ faults: x.faults, lines: x.c })),
      standIns: controls,
    },
  };
}

await mainFor(tornFrames, import.meta.url);
