/**
 * Child process of the soak, headless: the real core as print mode builds it (createApp, then
 * runPrintMode with --max-cycles), one long-running agent doing N turns back to back against
 * the scripted server. Prints one JSON line per sample (every `every` turns) and one at the end.
 *
 *   node [--expose-gc] --import tsx bench/lib/soakChild.ts <home> <workspace> <baseURL> <turns>
 *     [--every 100] [--gc-at N,M] [--snapshots 200,2000 --snapshot-dir DIR]
 *
 * With --expose-gc the samples at turns 200, 1,000 and the last (and --gc-at N,M) also read the
 * heap after a full collection (what is retained, as opposed to garbage not collected yet),
 * after RSS was read; nothing else forces a collection.
 */
import { Writable } from 'node:stream';
import path from 'node:path';
import v8 from 'node:v8';
import { createApp } from '../../src/app/createApp.js';
import { runPrintMode } from '../../src/cli/printMode.js';
import { fdsOf } from './procStats.js';
import { soakProbes } from './soakProbes.js';

const [home, workspace, baseURL, turnsArg, ...rest] = process.argv.slice(2);
const turns = Number(turnsArg);
if (!home || !workspace || !baseURL || !Number.isInteger(turns)) {
  throw new Error('usage: soakChild.ts <home> <workspace> <baseURL> <turns> [--every N]');
}
const opt = (name: string): string | undefined => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const every = Number(opt('--every') ?? 100);
// A forced collection changes what RSS shows afterwards, so only at these turns (and the last).
const gcAt = new Set([
  200,
  1000,
  turns,
  ...(opt('--gc-at') ?? '').split(',').filter(Boolean).map(Number),
]);
const snapshotAt = new Set((opt('--snapshots') ?? '').split(',').filter(Boolean).map(Number));
const snapshotDir = opt('--snapshot-dir') ?? workspace;
const gc = (globalThis as { gc?: () => void }).gc;

const made = await createApp({
  flags: { thinkIntervalMs: 0 },
  env: {
    COGITO_HOME: home,
    COGITO_BASE_URL: baseURL,
    COGITO_API_KEY: 'sk-soak',
    COGITO_MODEL: 'soak-model',
  },
  cwd: workspace,
  initialState: 'AWAITING_INPUT',
  // As print mode runs (src/cli/main.ts): turns back to back, no always-on pacing.
  background: false,
});
if (!made.ok) throw new Error(made.message);
const { app } = made;
const mbOf = (n: number): number => Math.round((n / 1024 / 1024) * 10) / 10;
const started = performance.now();
let done = 0;

function sample(turn: number): void {
  const m = process.memoryUsage();
  const row: Record<string, unknown> = {
    turn,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    rssMB: mbOf(m.rss),
    heapUsedMB: mbOf(m.heapUsed),
    heapTotalMB: mbOf(m.heapTotal),
    externalMB: mbOf(m.external),
    arrayBuffersMB: mbOf(m.arrayBuffers),
    ...fdsOf('self'),
    structures: soakProbes(app),
  };
  if (gc && gcAt.has(turn)) {
    gc();
    row.heapAfterGcMB = mbOf(process.memoryUsage().heapUsed);
  }
  process.stdout.write(`${JSON.stringify({ sample: row })}\n`);
  if (snapshotAt.has(turn)) {
    const file = v8.writeHeapSnapshot(path.join(snapshotDir, `soak-${turn}.heapsnapshot`));
    process.stdout.write(`${JSON.stringify({ snapshot: file, turn })}\n`);
  }
}

app.agent.subscribe((e) => {
  if (e.type !== 'turn_end') return;
  done += 1;
  if (done === 1 || done % every === 0) sample(done);
});
const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
const run = runPrintMode(app.agent, {
  prompt: 'Keep notes on the workspace, one file per turn.',
  json: true,
  maxCycles: turns,
  out: sink,
  err: sink,
});
const result = await run.done;
await app.close();
process.stdout.write(
  `${JSON.stringify({ end: { turns: result.turns, reason: result.reason } })}\n`,
);
process.exit(0);
