/**
 * The fault table: the real core (createApp → agent → provider → session files) driven through
 * each fault with the scripted server, or the real program killed mid-write. For each: did it
 * survive (no crash, no unhandled error, still working afterwards), was anything lost that had
 * been saved or acknowledged, how long until it was working again, and what the user saw.
 * The faults themselves are in lib/networkFaults.ts, lib/crashFaults.ts, lib/storageFaults.ts.
 *
 *   npm run bench:faults                      (all; writes bench/results/faults.json)
 *   npx tsx bench/faults.ts --only stall      (a subset; writes bench/results/tmp/faults.json)
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/appEnv.js';
import { sigkillApp, sigkillWriter } from './lib/crashFaults.js';
import type { FaultRow } from './lib/faultKit.js';
import { machineInfo } from './lib/machine.js';
import { providerFault, unresolvableHost } from './lib/networkFaults.js';
import { formatTable } from './lib/report.js';
import { corruptHistory, diskFull, garbageLine, truncateLastLine } from './lib/storageFaults.js';

export type { FaultRow };

/** Runs every fault (or those whose name contains `only`). */
export async function runFaults(only?: string): Promise<FaultRow[]> {
  const problems: string[] = [];
  const onProblem = (err: unknown): void => void problems.push(String(err));
  process.on('uncaughtException', onProblem);
  process.on('unhandledRejection', onProblem);
  const rows: FaultRow[] = [];
  const cases: [string, () => Promise<FaultRow>][] = [
    ['HTTP 500', () => providerFault('HTTP 500', { kind: 'error', status: 500 })],
    [
      'HTTP 429 + Retry-After: 3',
      () =>
        providerFault('HTTP 429 + Retry-After: 3', { kind: 'error', status: 429, retryAfter: '3' }),
    ],
    [
      'malformed SSE',
      () =>
        providerFault('malformed SSE', {
          kind: 'stream',
          content: 'The first part of an answer that goes on',
          malformedAfterChunks: 3,
        }),
    ],
    [
      'mid-stream drop',
      () =>
        providerFault('mid-stream drop', {
          kind: 'stream',
          content: 'The first part of an answer that goes on',
          dropAfterChunks: 4,
        }),
    ],
    [
      'stall (no bytes)',
      () =>
        providerFault(
          'stall (no bytes)',
          {
            kind: 'stream',
            content: 'The first part of an answer that goes on',
            stallAfterChunks: 4,
          },
          { streamIdleTimeoutMs: 2000 },
        ),
    ],
    ['unresolvable host', unresolvableHost],
    ['SIGKILL during writes (writer)', sigkillWriter],
    ['SIGKILL during writes (app)', sigkillApp],
    [
      'corrupt history: cut-off last line + a garbage line',
      () =>
        corruptHistory(
          'corrupt history (cut-off last line, a binary line)',
          (f) => {
            garbageLine(f);
            truncateLastLine(f);
          },
          (n) =>
            n === 998 ? 'the 2 damaged lines (kept in the .corrupt copy)' : `${1000 - n} messages`,
        ),
    ],
    [
      'corrupt history: whole file garbage',
      () =>
        corruptHistory(
          'corrupt history (whole file binary junk)',
          (f) =>
            fs.writeFileSync(
              f,
              Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 131) % 256)),
            ),
          (n) => `${1000 - n} messages unreadable (kept in the .corrupt copy)`,
        ),
    ],
    ['write error (ENOSPC)', diskFull],
  ];
  for (const [name, run] of cases) {
    if (only && !name.toLowerCase().includes(only.toLowerCase())) continue;
    const before = problems.length;
    process.stdout.write(`  ${name} …\n`);
    try {
      const row = await run();
      if (problems.length > before) {
        row.survived = false;
        row.detail += `; unhandled: ${problems.slice(before).join(' | ')}`;
      }
      rows.push(row);
    } catch (err) {
      rows.push({
        fault: name,
        survived: false,
        dataLost: 'unknown',
        detectMs: null,
        recoverMs: null,
        message: '',
        detail: `the run failed: ${(err as Error).message}`,
      });
    }
  }
  process.off('uncaughtException', onProblem);
  process.off('unhandledRejection', onProblem);
  return rows;
}

function short(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench', 'faults.ts')) {
  const machine = machineInfo();
  const started = performance.now();
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
  const rows = await runFaults(only);
  const table = formatTable(
    ['fault', 'survived', 'data lost', 'detect', 'recover', 'message shown'],
    rows.map((r) => [
      r.fault,
      r.survived ? 'yes' : 'NO',
      r.dataLost === false ? 'no' : short(r.dataLost, 40),
      r.detectMs === null ? '—' : `${r.detectMs} ms`,
      r.recoverMs === null ? '—' : `${r.recoverMs} ms`,
      short(r.message, 70),
    ]),
  );
  process.stdout.write(`\n== faults ==\n${table}\n`);
  for (const r of rows) process.stdout.write(`  ${r.fault}: ${r.detail}\n`);
  const file = path.join(
    ROOT,
    'bench',
    'results',
    only || process.env.COGITO_BENCH_ENTRY ? 'tmp' : '',
    'faults.json',
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `${JSON.stringify({ name: 'faults', machine, command: 'npm run bench:faults', wallSeconds: Math.round((performance.now() - started) / 100) / 10, rows }, null, 2)}\n`,
  );
  process.stdout.write(`  written: ${path.relative(ROOT, file)}\n`);
  process.exit(rows.every((r) => r.survived) ? 0 : 1);
}
