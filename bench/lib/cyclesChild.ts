/**
 * Child process for the memory benchmark: print mode (the real createApp and runPrintMode)
 * for N autonomous cycles, in a process started with --expose-gc, so the heap can be
 * measured after a full collection at chosen cycles. Prints one JSON line at the end.
 *
 *   node --expose-gc --import tsx bench/lib/cyclesChild.ts <home> <baseURL> <cycles>
 */
import { Writable } from 'node:stream';
import { createApp } from '../../src/app/createApp.js';
import { runPrintMode } from '../../src/cli/printMode.js';
import { internalsOf } from '../../test/helpers/agentInternals.js';

const [home, baseURL, cyclesArg] = process.argv.slice(2);
const cycles = Number(cyclesArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!home || !baseURL || !Number.isInteger(cycles) || !gc) {
  throw new Error('usage: node --expose-gc --import tsx cyclesChild.ts <home> <baseURL> <cycles>');
}
const made = await createApp({
  flags: { thinkIntervalMs: 0 },
  env: {
    COGITO_HOME: home,
    COGITO_BASE_URL: baseURL,
    COGITO_API_KEY: 'sk-bench',
    COGITO_MODEL: 'bench-model',
  },
  initialState: 'AWAITING_INPUT',
  // As print mode runs (src/cli/main.ts): cycles back to back, no always-on pacing, which
  // would rest between cycles that changed nothing.
  background: false,
});
if (!made.ok) throw new Error(made.message);
const { app } = made;
const samples: { cycle: number; heapUsedMB: number; rssMB: number }[] = [];
const compactions: number[] = [];
let turns = 0;
const mbOf = (n: number): number => Math.round((n / 1024 / 1024) * 10) / 10;
app.agent.subscribe((e) => {
  if (e.type === 'messages_replaced') compactions.push(turns);
  if (e.type !== 'turn_end') return;
  turns += 1;
  if (turns === 1 || turns % 100 === 0 || turns === 200) {
    gc();
    const m = process.memoryUsage();
    samples.push({ cycle: turns, heapUsedMB: mbOf(m.heapUsed), rssMB: mbOf(m.rss) });
  }
});
const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
const run = runPrintMode(app.agent, {
  prompt: 'Explore the workspace on your own.',
  json: true,
  maxCycles: cycles,
  out: sink,
  err: sink,
});
const result = await run.done;
await app.close();
process.stdout.write(
  `${JSON.stringify({ turns: result.turns, reason: result.reason, samples, compactions, historyMessages: internalsOf(app.agent).history.messages().length })}\n`,
);
process.exit(0);
