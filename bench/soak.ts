/**
 * soak: what a user lives over days, counted in model requests (issue 41). The production
 * build, brought up to date first (the checkout's own rule, scripts/checkoutBuild.mjs); user
 * turns typed back to back, each streaming reasoning, a Markdown reply (heading, list, code,
 * table) and a `create` of a new file, then a wrap-up ending in [WAIT].
 * - --screen (results/soak-screen.json): the full screen, `node bin/cogito.js` in a 120×40
 *   pseudo-terminal, each message typed and Enter pressed once "Your turn" shows
 *   (`lib/soakScreen.ts`);
 * - default (results/soak.json): the background agent, `cogito start` in the folder, each
 *   message sent as `cogito send --wait` sends it (`lib/soakAgent.ts`).
 * At 200, 1,000, 2,000, 5,000, 10,000 requests (those below --requests) and the last: the
 * median of three RSS readings a second apart, open fds, and the heap retained after a full
 * collection through the inspector (`lib/soakReadings.ts`, `lib/inspector.ts`).
 *
 * - --attached (results/soak-attached.json): `cogito start`, then the screen as above attaches to
 *   that agent; the readings are the screen's process, which only mirrors and draws.
 *
 *   npx tsx bench/soak.ts [--screen [--unbounded] | --attached] [--requests 10000] [--pause-ms 0]
 *
 * --unbounded leaves Ink's text caches as Ink has them (COGITO_INK_CACHES=unbounded), for a
 * before picture (results/soak-screen-unbounded.json). --pause-ms P: a user's pause before each
 * message (turns are no longer back to back; the program's idle collection can run), recorded
 * apart (…-pause<P>.json): it is not the issue's measure.
 *
 * Targets: RSS at 2,000 within 1.2× of RSS at 200, at 10,000 within 1.3×; retained heap flat
 * within 10 MB from 200 on; open fds flat.
 */
import { checkoutBuild } from '../scripts/checkoutBuild.mjs';
import { ROOT } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult } from './lib/report.js';
import { runAgentSoak } from './lib/soakAgent.js';
import { runScreenSoak } from './lib/soakScreen.js';
import { soakMetrics } from './lib/soakSummary.js';

/** config.json for every soak: no budget or cycle cap (they would pause a long run). */
export const SOAK_CONFIG = { maxAutonomousCycles: 0, tokenBudgetPerDay: 0, tokenBudgetPerHour: 0 };

function argOf(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export const soak: Bench = {
  name: 'soak',
  async run({ quick }): Promise<BenchResult> {
    const requests = Number(argOf('--requests') ?? (quick ? 400 : 10_000));
    if (!Number.isInteger(requests) || requests < 201) throw new Error('--requests N, N > 200');
    const attached = process.argv.includes('--attached');
    const screen = attached || process.argv.includes('--screen');
    const unbounded = screen && process.argv.includes('--unbounded');
    const pauseMs = Number(argOf('--pause-ms') ?? 0);
    // The bundle, as a user runs it: rebuilt here if stale, so the program never rebuilds.
    if ((await checkoutBuild(ROOT, { stderr: process.stderr })) === undefined)
      throw new Error('no production build (npm run build failed)');
    const run = screen
      ? await runScreenSoak(
          requests,
          SOAK_CONFIG,
          unbounded ? { COGITO_INK_CACHES: 'unbounded' } : {},
          pauseMs,
          attached,
        )
      : await runAgentSoak(requests, SOAK_CONFIG, pauseMs);
    const label = attached ? 'attached screen' : screen ? 'screen' : 'background agent';
    const what = attached
      ? 'a screen (120×40) attached to a background agent'
      : screen
        ? 'the full screen (120×40)'
        : 'the background agent';
    return {
      name: `${attached ? 'soak-attached' : screen ? 'soak-screen' : 'soak'}${unbounded ? '-unbounded' : ''}${pauseMs ? `-pause${pauseMs}` : ''}`,
      title: `soak, ${what}: ${run.requests} requests, ${run.turns} typed turns ${pauseMs ? `${pauseMs} ms apart` : 'back to back'}`,
      metrics: soakMetrics(label, run.checkpoints, run.seconds),
      notes: [
        "The production build (dist/, rebuilt first if stale). Each turn: the user message, then reasoning (reasoning_content) + a Markdown reply (heading, list, code block, table) + [TOOL] create of a new file; then reasoning + a wrap-up ending in [WAIT]. Two requests a turn, plus the compactor's. No budgets or cycle cap; default think interval.",
        attached
          ? 'attached screen: cogito start in the folder, then node bin/cogito.js in a 120×40 pseudo-terminal attaches to it (mirrors its store over the socket, draws its stream); messages typed as on the full screen; the readings are the screen process.'
          : screen
            ? 'screen: node bin/cogito.js in a 120×40 pseudo-terminal; the next message is typed as soon as "Your turn" shows after the wrap-up.'
            : 'background agent: cogito start in the folder (the detached daemon); each message sent with the code of cogito send --wait (a new socket connection per message).',
        'Checkpoints read from outside while the turns go on: three RSS readings (/proc/<pid>/status) ~1 s apart, their median compared; open fds (/proc/<pid>/fd) likewise; then a full collection through the inspector (NODE_OPTIONS=--inspect-port, opened with SIGUSR1 at the start; HeapProfiler.collectGarbage) and the heap in use after it. The forced collection also lowers RSS for a while after it; the next checkpoint is hundreds of requests later.',
        'Targets (issue 41): RSS at 2,000 ≤ 1.2× RSS at 200 (checkpoints up to 2,000 are held to 1.2×), at 10,000 ≤ 1.3× (5,000 too); retained heap within 10 MB of the one at 200; fds never above those at 200.',
      ],
      details: {
        requests: run.requests,
        turns: run.turns,
        seconds: run.seconds,
        command: `npx tsx bench/soak.ts${attached ? ' --attached' : screen ? ' --screen' : ''}${unbounded ? ' --unbounded' : ''} --requests ${requests}${pauseMs ? ` --pause-ms ${pauseMs}` : ''}`,
        pauseMs,
        checkpoints: run.checkpoints,
      },
    };
  },
};

await mainFor(soak, import.meta.url);
