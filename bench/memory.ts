/**
 * memory: resident memory (VmRSS) of the real program.
 * - idle: the full-screen app waiting for the user, empty history;
 * - loaded: the full-screen app with a 10,000-message session, paused (nothing running);
 * - cycles: print mode running 1,000 autonomous cycles against an instant server, with the
 *   growth between cycle 200 and cycle 1,000.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startScriptedServer, type RecordedRequest } from '../test/helpers/scriptedServer.js';
import { COGITO, ROOT, makeHome } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { mb, rssOf } from './lib/rss.js';
import { writeSession } from './lib/sessionData.js';
import { sleep, summarize } from './lib/stats.js';
import { startTui, type TuiOptions } from './lib/tui.js';

/** Median VmRSS over `n` readings 200 ms apart. */
async function settledRss(pid: number, n = 5): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    xs.push(rssOf(pid));
    await sleep(200);
  }
  return summarize(xs).p50;
}

/** RSS of the full-screen app once it shows `label` and has been idle for a few seconds. */
async function tuiRss(label: string, opts: TuiOptions): Promise<number> {
  const tui = await startTui(opts);
  try {
    tui.server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
    await tui.waitForText(label, 0, 60_000);
    await sleep(3000);
    return await settledRss(tui.app.pid);
  } finally {
    await tui.close();
  }
}

const WORDS = [
  'budget',
  'minutes',
  'supplier',
  'draft',
  'invoice',
  'schedule',
  'contract',
  'notes',
  'photo',
  'backup',
  'report',
  'agenda',
];

/** A different reply every cycle (the loop guard pauses on near-identical ones), no [WAIT]. */
function distinctReply(req: RecordedRequest): string {
  const i = req.index;
  const w = (k: number): string => WORDS[(i * 7 + k * 5) % WORDS.length]!;
  return `Cycle ${i}: looked at the ${w(1)} and the ${w(2)}; ${((i * 2654435761) % 2 ** 32).toString(36)} noted. Next: ${w(3)} ${w(4)}.`;
}

/** Runs print mode for `cycles` autonomous turns; samples VmRSS at every turn's end. */
async function cycleRss(
  cycles: number,
): Promise<{ rss: number[]; seconds: number; turns: number; exitCode: number | null }> {
  const server = await startScriptedServer();
  server.setDefault((req) => ({ kind: 'stream', content: distinctReply(req) }));
  // 1,000 turns of a growing conversation pass the default daily token budget (2 M), which
  // pauses print mode as it should; this measures memory, so the budget is off (0).
  const home = makeHome(server.url, { maxAutonomousCycles: 0, tokenBudgetPerDay: 0 });
  const rss: number[] = [];
  try {
    const t0 = performance.now();
    const child = spawn(
      COGITO[0]!,
      [
        COGITO[1]!,
        '-p',
        'Explore the workspace on your own.',
        '--json',
        '--max-cycles',
        String(cycles + 1),
        '--think-interval',
        '0',
      ],
      { env: home.env(), cwd: home.workspace, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let buffered = '';
    let turns = 0;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('"turn_end"')) continue;
        turns += 1;
        if (turns <= cycles) rss[turns] = rssOf(child.pid!);
      }
    });
    const exitCode = await new Promise<number | null>((r) => child.on('close', r));
    if (turns < cycles)
      throw new Error(
        `print mode stopped after ${turns} turns (exit ${exitCode}): ${stderr.slice(-500)}`,
      );
    return { rss, seconds: (performance.now() - t0) / 1000, turns, exitCode };
  } finally {
    await server.close();
    home.cleanup();
  }
}

interface HeapRun {
  turns: number;
  reason: string;
  samples: { cycle: number; heapUsedMB: number; rssMB: number }[];
  compactions: number[];
  historyMessages: number;
}

/** The same cycles in a child started with --expose-gc: the heap after a full collection. */
async function cycleHeap(cycles: number): Promise<HeapRun> {
  const server = await startScriptedServer();
  server.setDefault((req) => ({ kind: 'stream', content: distinctReply(req) }));
  const home = makeHome(server.url, { maxAutonomousCycles: 0, tokenBudgetPerDay: 0 });
  try {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        path.join(ROOT, 'bench', 'lib', 'cyclesChild.ts'),
        home.home,
        server.url,
        String(cycles),
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error(`cyclesChild failed (${code}): ${err.slice(-800)}`);
    return JSON.parse(out.trim().split('\n').pop()!) as HeapRun;
  } finally {
    await server.close();
    home.cleanup();
  }
}

/** Median of the readings at turns [from, to]. */
function windowMedian(rss: number[], from: number, to: number): number {
  return summarize(rss.slice(from, to + 1).filter((x) => Number.isFinite(x))).p50;
}

export const memory: Bench = {
  name: 'memory',
  async run({ quick }): Promise<BenchResult> {
    const cycles = quick ? 300 : 1000;
    const idle = await tuiRss('Your turn', {});
    const loaded = await tuiRss('Paused', {
      args: ['--paused'],
      config: { contextWindow: 50_000_000, compressTurns: 1_000_000 },
      prepare: async (home) => void (await writeSession(path.join(home.home, 'data'), 10_000)),
    });
    const run = await cycleRss(cycles);
    const at200 = windowMedian(run.rss, 190, 210);
    const atEnd = windowMedian(run.rss, cycles - 20, cycles);
    const growth = (atEnd - at200) / at200;
    const heap = await cycleHeap(cycles);
    const h200 = heap.samples.find((x) => x.cycle === 200)?.heapUsedMB ?? NaN;
    const hEnd = heap.samples.find((x) => x.cycle === cycles)?.heapUsedMB ?? NaN;
    return {
      name: 'memory',
      title: 'memory (VmRSS of the app process)',
      metrics: [
        {
          name: 'idle (full-screen app, empty history)',
          value: `${mb(idle)} MB`,
          raw: mb(idle),
          target: '≤ 120 MB',
          met: mb(idle) <= 120,
        },
        {
          name: 'with a 10,000-message session loaded (paused)',
          value: `${mb(loaded)} MB`,
          raw: mb(loaded),
        },
        {
          name: `print mode at cycle 200 → cycle ${cycles}`,
          value: `${mb(at200)} MB → ${mb(atEnd)} MB`,
          raw: mb(atEnd),
        },
        {
          name: `growth between cycle 200 and ${cycles}`,
          value: `${(growth * 100).toFixed(1)} %`,
          raw: growth * 100,
          target: '< 10 %',
          met: growth < 0.1,
        },
        {
          name: `heap after full GC, cycle 200 → ${cycles} (in-process run)`,
          value: `${h200} MB → ${hEnd} MB (${(((hEnd - h200) / h200) * 100).toFixed(1)} %)`,
          raw: hEnd,
        },
        {
          name: 'autonomous cycles per second (instant server)',
          value: (run.turns / run.seconds).toFixed(1),
          raw: run.turns / run.seconds,
        },
      ],
      notes: [
        'RSS is read from /proc/<pid>/status of the node process running bin/cogito.js: the median of 5 readings 200 ms apart after 3 s idle; during the cycles, at every turn_end, and the median of the readings around cycle 200 (190–210) and the last 20 cycles is compared.',
        'Cycles: print mode, --think-interval 0, maxAutonomousCycles 0, a distinct reply without [WAIT] or tool calls each time; compression runs as configured by default (it fires as the history grows).',
        'The heap row repeats the cycles in a child started with --expose-gc (bench/lib/cyclesChild.ts: createApp + runPrintMode in-process) and reads heapUsed after a full collection: what is really retained, as opposed to what the allocator keeps.',
      ],
      details: {
        idleMB: mb(idle),
        loadedMB: mb(loaded),
        cycles: {
          turns: run.turns,
          seconds: Math.round(run.seconds * 10) / 10,
          rssMBByCycle: run.rss.flatMap((x, i) => (i === 1 || i % 50 === 0 ? [[i, mb(x)]] : [])),
        },
        heapAfterGc: heap,
      },
    };
  },
};

await mainFor(memory, import.meta.url);
