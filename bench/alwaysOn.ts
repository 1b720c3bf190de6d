/**
 * alwaysOn: a simulated 8-hour working day (fake clock, scripted server, real files), in
 * which the workspace changes 10 times, against the naive loop (a request every 3 s).
 * Measures requests, prompt and reply tokens (the scripted server's counts: JSON length / 4)
 * and the share of prompt tokens that were a byte-identical prefix of the previous request,
 * which is what a provider's prompt cache can serve.
 *
 *   npx tsx bench/alwaysOn.ts            full day; naive loop measured over 1 simulated hour
 *   npx tsx bench/alwaysOn.ts --quick    2 simulated hours; naive loop over 10 minutes
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createHarness, type Harness } from '../test/helpers/agentHarness.js';
import { FakeClock } from '../test/helpers/fakeClock.js';
import type { RecordedRequest } from '../test/helpers/scriptedServer.js';
import { mainFor, type Bench, type Metric } from './lib/report.js';

const HOUR = 60 * 60_000;

interface Spend {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens inside the byte prefix shared with the previous request. */
  prefixTokens: number;
}

/** How many leading bytes two strings share. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function spend(requests: readonly RecordedRequest[]): Spend {
  let prev = '';
  const out: Spend = {
    requests: requests.length,
    promptTokens: 0,
    completionTokens: 0,
    prefixTokens: 0,
  };
  for (const r of requests) {
    const body = JSON.stringify(r.body.messages);
    const prompt = Math.ceil(body.length / 4);
    out.promptTokens += prompt;
    out.prefixTokens += Math.floor(commonPrefix(prev, body) / 4);
    prev = body;
  }
  return out;
}

/** The model: reads what changed, then has nothing new to say until the next change. */
function script(h: Harness): void {
  h.server.setDefault((req) => {
    const last = JSON.stringify(req.body.messages.at(-1));
    const m = /created: (change-\d+\.md)/.exec(last);
    return m
      ? { kind: 'stream', content: `A new note appeared.\n[TOOL] read("${m[1]}") [/TOOL]` }
      : { kind: 'stream', content: 'Nothing new.' };
  });
}

async function day(hours: number, changes: number): Promise<Spend & { completion: number }> {
  const clock = new FakeClock();
  const h = await createHarness({
    initialState: 'THINKING',
    settings: { thinkIntervalMs: 3000, maxIntervalMs: 30 * 60_000 },
    alwaysOn: { timers: clock, idleSkip: true },
  });
  try {
    script(h);
    h.agent.start();
    const every = (hours * HOUR) / (changes + 1);
    for (let i = 1; i <= changes; i++) {
      await clock.advance(every, () => h.agent.idle());
      const name = `change-${i}.md`;
      await writeFile(path.join(h.workspaceDir, name), `# note ${i}\n`);
      // What the watcher would report (a real watcher cannot follow a fake clock).
      h.agent.wakeForChanges({ created: [name], modified: [], removed: [] });
    }
    await clock.advance(every, () => h.agent.idle());
    const s = spend(h.server.requests);
    return { ...s, completion: s.completionTokens };
  } finally {
    await h.dispose();
  }
}

async function naive(hours: number): Promise<Spend> {
  const clock = new FakeClock();
  const h = await createHarness({
    initialState: 'THINKING',
    // A request every 3 s whatever happens: no pacing, no idle path.
    settings: { thinkIntervalMs: 3000, maxIntervalMs: 3000 },
    alwaysOn: { timers: clock, idleSkip: false },
  });
  try {
    script(h);
    h.agent.start();
    await clock.advance(hours * HOUR, () => h.agent.idle());
    return spend(h.server.requests);
  } finally {
    await h.dispose();
  }
}

const span = (h: number): string => (h >= 1 ? `${h} h` : `${Math.round(h * 60)} min`);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (a: number, b: number): string => `${b > 0 ? ((100 * a) / b).toFixed(1) : '0'} %`;

export const alwaysOn: Bench = {
  name: 'alwaysOn',
  async run(opts) {
    const hours = opts.quick ? 2 : 8;
    const naiveHours = opts.quick ? 1 / 6 : 1;
    const t0 = performance.now();
    const paced = await day(hours, 10);
    const n = await naive(naiveHours);
    const scale = hours / naiveHours;
    const naiveRequests = Math.round((hours * HOUR) / 3000);
    const naivePrompt = n.promptTokens * scale;
    const metrics: Metric[] = [
      {
        name: `requests in ${hours} h (10 changes)`,
        value: fmt(paced.requests),
        raw: paced.requests,
      },
      { name: 'prompt tokens', value: fmt(paced.promptTokens), raw: paced.promptTokens },
      {
        name: 'cached-prefix share of prompt tokens',
        value: pct(paced.prefixTokens, paced.promptTokens),
        raw: paced.prefixTokens / Math.max(1, paced.promptTokens),
        target: '≥ 80 %',
        met: paced.prefixTokens / Math.max(1, paced.promptTokens) >= 0.8,
      },
      { name: `naive loop: requests in ${hours} h`, value: fmt(naiveRequests), raw: naiveRequests },
      {
        name: `naive loop: prompt tokens (${span(naiveHours)} measured × ${scale})`,
        value: `≥ ${fmt(naivePrompt)}`,
        raw: naivePrompt,
      },
      {
        name: 'prompt tokens, paced / naive',
        value: pct(paced.promptTokens, naivePrompt),
        raw: paced.promptTokens / naivePrompt,
        target: '< 5 %',
        met: paced.promptTokens / naivePrompt < 0.05,
      },
    ];
    return {
      name: 'alwaysOn',
      title: `always on: a simulated ${hours}-hour day vs the naive 3 s loop`,
      metrics,
      notes: [
        "Token counts are the scripted server's (request JSON length / 4); the cached prefix is the byte prefix shared with the previous request.",
        `The naive loop is measured for ${span(naiveHours)} of simulated time and scaled linearly: a lower bound, since its context keeps growing.`,
        `Wall time ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
      ],
      details: { paced, naiveMeasured: n, naiveHours, hours },
    };
  },
};

await mainFor(alwaysOn, import.meta.url);
