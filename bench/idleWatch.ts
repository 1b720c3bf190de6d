/**
 * idleWatch (#42): an eight-hour idle run on a Downloads-like folder with one new file an
 * hour, and a model that says "nothing needs doing right now". It should look once per change
 * and otherwise spend nothing. Three models, with the config's defaults (think interval 3 s,
 * pacing up to 30 min, prompt cache 300 s, change floor 30 s and 20 an hour):
 *
 * - rests: ends its reply plainly (what the prompt now asks);
 * - parks: ends it with [WAIT] (what the prompt asked before #42) and
 *   `watch.resumeAfterWaitMs: 0`, the behaviour before #42;
 * - asks: ends it with [WAIT], and the default `watch.resumeAfterWaitMs` (30 min).
 *
 * The scheduler, the change floor, the question's wait and the ledger run on a fake clock
 * (`test/helpers/fakeClock.ts`); HTTP to the scripted server, the files and the workspace
 * fingerprint are real. A real watcher cannot follow a fake clock, so each new file is reported
 * the way the watcher reports it (`agent.wakeForChanges`) right after it is written.
 *
 *   npx tsx bench/idleWatch.ts            8 simulated hours, a file every hour
 *   npx tsx bench/idleWatch.ts --quick    2 simulated hours
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentSettings } from '../src/agent/agent.js';
import { DEFAULT_RESUME_AFTER_WAIT_MS } from '../src/config/schema.js';
import { createHarness } from '../test/helpers/agentHarness.js';
import { FakeClock } from '../test/helpers/fakeClock.js';
import { mainFor, type Bench, type Metric } from './lib/report.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A new file lands this long into each hour. */
const CHANGE_AT = 45 * MIN;
const REST = 'I looked around the folder. Nothing needs doing right now.';

interface Model {
  name: string;
  reply: string;
  resumeAfterWaitMs: number;
}

const MODELS: readonly Model[] = [
  { name: 'rests', reply: REST, resumeAfterWaitMs: DEFAULT_RESUME_AFTER_WAIT_MS },
  { name: 'parks', reply: `${REST} [WAIT]`, resumeAfterWaitMs: 0 },
  { name: 'asks', reply: `${REST} [WAIT]`, resumeAfterWaitMs: DEFAULT_RESUME_AFTER_WAIT_MS },
];

interface Run {
  model: string;
  hours: number;
  changes: number;
  requests: number;
  /** Requests that came within 1 simulated minute of a change (the look it brought). */
  afterChange: number;
  /** Requests at other times, the first look at start excepted. */
  otherwise: number;
  /** Changes that got no look before the next one (or the end). */
  unseen: number;
  promptTokens: number;
  completionTokens: number;
  /** Timers that fired (timed looks, floors, the question's wait): checks at no token cost. */
  timersFired: number;
  /** Simulated ms from each change to its look. */
  latencyMs: number[];
  /** Simulated times of the requests, in minutes from the start. */
  requestMinutes: number[];
  wallMs: number;
}

async function night(model: Model, hours: number): Promise<Run> {
  const t0 = performance.now();
  const clock = new FakeClock();
  const start = clock.now();
  let timersFired = 0;
  const set = clock.setTimeout.bind(clock);
  clock.setTimeout = (fn, ms) =>
    set(() => {
      timersFired += 1;
      fn();
    }, ms);
  const settings: Partial<AgentSettings> = {
    thinkIntervalMs: 3000,
    maxIntervalMs: 30 * MIN,
    cacheTtlMs: 300_000,
    changeWakes: { minIntervalMs: 30_000, maxPerHour: 20 },
    resumeAfterWaitMs: model.resumeAfterWaitMs,
  };
  const h = await createHarness({
    initialState: 'THINKING',
    settings,
    alwaysOn: { timers: clock, idleSkip: true },
  });
  const requestAt: number[] = [];
  h.server.setDefault(() => {
    requestAt.push(clock.now());
    return { kind: 'stream', content: model.reply };
  });
  const changedAt: number[] = [];
  try {
    h.agent.start();
    const advanceTo = (t: number) => clock.advance(t - clock.now(), () => h.agent.idle());
    for (let i = 0; i < hours; i++) {
      await advanceTo(start + i * HOUR + CHANGE_AT);
      const name = `download-${i + 1}.pdf`;
      await writeFile(path.join(h.workspaceDir, name), `file ${i + 1}\n`);
      changedAt.push(clock.now());
      h.agent.wakeForChanges({ created: [name], modified: [], removed: [] });
    }
    await advanceTo(start + hours * HOUR);
    await h.agent.idle();
    const near = (r: number) => changedAt.some((c) => r >= c && r - c <= MIN);
    const latency = changedAt
      .map((c, i) => requestAt.find((r) => r >= c && r < (changedAt[i + 1] ?? Infinity)))
      .map((r, i) => (r === undefined ? undefined : r - changedAt[i]!));
    const bodies = h.server.requests.map((r) => JSON.stringify(r.body.messages));
    return {
      model: model.name,
      hours,
      changes: changedAt.length,
      requests: requestAt.length,
      afterChange: requestAt.filter(near).length,
      otherwise: requestAt.filter((r) => !near(r) && r !== start).length,
      unseen: latency.filter((l) => l === undefined).length,
      promptTokens: bodies.reduce((n, b) => n + Math.ceil(b.length / 4), 0),
      completionTokens: requestAt.length * Math.ceil(model.reply.length / 4),
      timersFired,
      latencyMs: latency.filter((l): l is number => l !== undefined),
      requestMinutes: requestAt.map((r) => Math.round((r - start) / MIN)),
      wallMs: performance.now() - t0,
    };
  } finally {
    await h.dispose();
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export const idleWatch: Bench = {
  name: 'idleWatch',
  async run(opts) {
    const hours = opts.quick ? 2 : 8;
    const runs: Run[] = [];
    for (const m of MODELS) runs.push(await night(m, hours));
    const metrics: Metric[] = [];
    for (const r of runs) {
      const looksOncePerChange = r.afterChange === r.changes && r.unseen === 0;
      const spendsNothingElse = r.otherwise === 0;
      metrics.push(
        {
          name: `${r.model}: requests in ${hours} h (${r.changes} new files)`,
          value: `${r.requests} (start 1, after a change ${r.afterChange}, otherwise ${r.otherwise})`,
          raw: r.requests,
          ...(r.model === 'parks'
            ? {}
            : {
                target: `1 + ${r.changes}, none otherwise`,
                met: looksOncePerChange && spendsNothingElse && r.requests === 1 + r.changes,
              }),
        },
        {
          name: `${r.model}: files never looked at`,
          value: String(r.unseen),
          raw: r.unseen,
          ...(r.model === 'parks' ? {} : { target: '0', met: r.unseen === 0 }),
        },
        {
          name: `${r.model}: prompt / reply tokens`,
          value: `${fmt(r.promptTokens)} / ${fmt(r.completionTokens)}`,
          raw: r.promptTokens,
        },
        {
          name: `${r.model}: timers fired (timed looks, floors, the question's wait)`,
          value: `${fmt(r.timersFired)}, of which requests: ${r.requests - r.afterChange}`,
          raw: r.timersFired,
        },
      );
    }
    return {
      name: 'idleWatch',
      title: `${hours === 8 ? 'an' : 'a'} ${hours}-hour idle run, a new file every hour, a model with nothing to do`,
      metrics,
      notes: [
        `Simulated time: ${hours} h on the scheduler's fake clock; wall time ${runs.map((r) => `${r.model} ${(r.wallMs / 1000).toFixed(1)} s`).join(', ')}.`,
        'Token counts are the scripted server\'s (request JSON length / 4); "after a change" is within one simulated minute of it.',
        '"parks" is the behaviour before #42 (a [WAIT] for lack of work, no resume): it is measured, not held to the target.',
      ],
      details: { runs },
    };
  },
};

await mainFor(idleWatch, import.meta.url);
