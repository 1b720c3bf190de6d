/**
 * soak: 2,000 turns back to back, each a Markdown reply and a tool call creating a file, then
 * a wrap-up (issue 27, point 5). RSS, heap, external, array buffers, open fds and sockets are
 * sampled every 100 turns.
 * - headless (results/soak.json): the real core as print mode builds it, one long-running
 *   agent in a child process (`lib/soakChild.ts`) started with --expose-gc, which also reads
 *   the heap after a full collection at turns 200, 1,000 and the last;
 * - --screen (results/soak-screen.json): the full-screen program (`node bin/cogito.js`) in a
 *   pseudo-terminal, sampled from /proc (`lib/soakScreen.ts`).
 *
 *   nice -n 10 npx tsx bench/soak.ts [--turns 2000] [--screen [--unbounded] [--minutes M]] [--quick]
 *
 * Target: RSS at the end within 1.3× of RSS after 200 turns; fds and sockets flat.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startScriptedServer } from '../test/helpers/scriptedServer.js';
import { ROOT, makeHome } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { soakScript } from './lib/soakScript.js';
import { runScreenSoak } from './lib/soakScreen.js';
import { soakMetrics, type SoakSample } from './lib/soakSummary.js';

/** config.json for every soak: no budget or cycle cap (they would pause a 2,000-turn run). */
export const SOAK_CONFIG = { maxAutonomousCycles: 0, tokenBudgetPerDay: 0, tokenBudgetPerHour: 0 };

function argOf(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export interface HeadlessRun {
  samples: SoakSample[];
  snapshots: string[];
  end: unknown;
}

/** The headless soak in a child process; `gc` starts it with --expose-gc. */
export async function runHeadlessSoak(
  turns: number,
  opts: { gc?: boolean; snapshots?: string; snapshotDir?: string } = {},
): Promise<HeadlessRun> {
  const server = await startScriptedServer();
  server.setDefault(soakScript(() => {}));
  const home = makeHome(server.url, SOAK_CONFIG, 'cogito-soak-');
  const samples: SoakSample[] = [];
  const snapshots: string[] = [];
  let end: unknown;
  try {
    const extra = opts.snapshots
      ? ['--snapshots', opts.snapshots, '--snapshot-dir', opts.snapshotDir ?? home.dir]
      : [];
    // The run is started under `nice -n 10` as a whole; the child inherits it.
    const child = spawn(
      process.execPath,
      [
        ...(opts.gc ? ['--expose-gc'] : []),
        '--import',
        'tsx',
        path.join(ROOT, 'bench', 'lib', 'soakChild.ts'),
        home.home,
        home.workspace,
        server.url,
        String(turns),
        ...extra,
      ],
      { cwd: ROOT, env: home.env(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let buffered = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()).slice(-4000));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const msg = JSON.parse(line) as { sample?: SoakSample; snapshot?: string; end?: unknown };
        if (msg.sample) {
          samples.push(msg.sample);
          process.stderr.write(`  turn ${msg.sample.turn}: ${msg.sample.rssMB} MB\n`);
        }
        if (msg.snapshot) snapshots.push(msg.snapshot);
        if (msg.end) end = msg.end;
      }
    });
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error(`soakChild failed (${code}): ${err.slice(-1500)}`);
    return { samples, snapshots, end };
  } finally {
    await server.close();
    if (!opts.snapshots) home.cleanup();
  }
}

export const soak: Bench = {
  name: 'soak',
  async run({ quick }): Promise<BenchResult> {
    const turns = Number(argOf('--turns') ?? (quick ? 300 : 2000));
    const screen = process.argv.includes('--screen');
    // Ink's text caches as Ink leaves them (COGITO_INK_CACHES=unbounded): the before picture.
    const unbounded = process.argv.includes('--unbounded');
    const details: Record<string, unknown> = {
      turns,
      command: `nice -n 10 npx tsx bench/soak.ts --turns ${turns}${screen ? ' --screen' : ''}${unbounded ? ' --unbounded' : ''}`,
    };
    let metrics: Metric[];
    if (screen) {
      const env: Record<string, string> = unbounded ? { COGITO_INK_CACHES: 'unbounded' } : {};
      const minutes = Number(argOf('--minutes') ?? Infinity);
      const tui = await runScreenSoak(turns, SOAK_CONFIG, 100, env, minutes * 60_000);
      metrics = soakMetrics('screen', tui.samples);
      details.screen = tui;
    } else {
      const run = await runHeadlessSoak(turns, { gc: true });
      metrics = soakMetrics('headless', run.samples, true);
      details.headless = run;
    }
    return {
      // The screen run is recorded beside the headless one (results/soak-screen.json).
      name: screen ? `soak-screen${unbounded ? '-unbounded' : ''}` : 'soak',
      title: `soak${screen ? ' with the screen' : ', headless'}: ${turns} turns back to back (Markdown reply + created file each)`,
      metrics,
      notes: [
        'Each turn: a Markdown reply (heading, list, code block, table) with [TOOL] create(...) of a new file, then a wrap-up reply; --think-interval 0, no budgets or cycle cap, compression as configured by default. The whole run at nice 10.',
        'headless: createApp + runPrintMode in a child started with --expose-gc (bench/lib/soakChild.ts), sampled in-process every 100 turns (process.memoryUsage, /proc/self/fd); at 200, 1,000 and the last turn a full collection follows the reading (heapAfterGcMB), and the structure sizes are read (bench/lib/soakProbes.ts).',
        'screen: node bin/cogito.js in a pseudo-terminal (100×30), sampled from /proc/<pid> when the n-th wrap-up is requested (bench/lib/soakScreen.ts).',
      ],
      details,
    };
  },
};

await mainFor(soak, import.meta.url);
