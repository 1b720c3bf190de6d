/**
 * Every benchmark in turn, then one summary table.
 *
 *   npm run bench                 full run (~5 minutes on 2 cores); results in bench/results/
 *   npm run bench -- --quick      fewer samples, shorter stream; results in bench/results/tmp/
 *   npx tsx bench/<name>.ts       one benchmark (startup, install, interrupt, echo, send, render, reply, tornFrames, memory, history, safety, sandbox, journal, cards, mcp, watch)
 */
import { cards } from './cards.js';
import { documents } from './documents.js';
import { echo } from './echo.js';
import { history } from './history.js';
import { idleWatch } from './idleWatch.js';
import { install } from './install.js';
import { journal } from './journal.js';
import { interrupt } from './interrupt.js';
import { mcp } from './mcp.js';
import { nativeCalls } from './nativeCalls.js';
import { memory } from './memory.js';
import { render } from './render.js';
import { reply } from './reply.js';
import { safety } from './safety.js';
import { sandbox } from './sandbox.js';
import {
  formatTable,
  parseBenchArgs,
  runAndRecord,
  type Bench,
  type BenchResult,
} from './lib/report.js';
import { send } from './send.js';
import { startup } from './startup.js';
import { tornFrames } from './tornFrames.js';
import { watch } from './watch.js';

const ALL: Bench[] = [
  startup,
  install,
  interrupt,
  echo,
  send,
  render,
  reply,
  tornFrames,
  memory,
  history,
  safety,
  sandbox,
  journal,
  cards,
  mcp,
  nativeCalls,
  watch,
  idleWatch,
  documents,
];

const opts = parseBenchArgs(process.argv.slice(2));
// The peer comparison installs qwen-code from npm: only when asked for (`-- --peers`).
if (process.argv.includes('--peers')) ALL.splice(0, ALL.length, (await import('./peers.js')).peers);
const results: BenchResult[] = [];
const failed: string[] = [];
const t0 = performance.now();
for (const bench of ALL) {
  try {
    results.push(await runAndRecord(bench, opts));
  } catch (err) {
    failed.push(bench.name);
    process.stderr.write(`${bench.name} failed: ${(err as Error).stack ?? String(err)}\n`);
  }
}
const rows = results.flatMap((r) =>
  r.metrics
    .filter((m) => m.target !== undefined)
    .map((m) => [r.name, m.name, m.value, m.target ?? '', m.met ? 'yes' : 'NO']),
);
process.stdout.write(
  `\n== summary (targets) ==\n${formatTable(['bench', 'metric', 'measured', 'target', 'met'], rows)}\n`,
);
process.stdout.write(
  `\n${Math.round((performance.now() - t0) / 1000)} s in all${failed.length ? `; FAILED: ${failed.join(', ')}` : ''}\n`,
);
process.exit(failed.length ? 1 : 0);
