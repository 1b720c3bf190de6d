/**
 * What every benchmark returns, how it is printed, and where it is written:
 * `bench/results/<name>.json` for a full run, `bench/results/tmp/` (git-ignored) for `--quick`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './appEnv.js';
import { machineInfo, type MachineInfo } from './machine.js';

/** One measured number and, where the issue sets one, its target. */
export interface Metric {
  name: string;
  /** The measured value, already formatted for the table (units included). */
  value: string;
  /** The raw number, for the JSON. */
  raw?: number | undefined;
  target?: string;
  /** Whether the target is met; undefined when there is no target. */
  met?: boolean | undefined;
}

export interface BenchResult {
  name: string;
  title: string;
  metrics: Metric[];
  /** Raw samples and anything else worth keeping. */
  details: Record<string, unknown>;
  notes: string[];
}

export interface BenchOptions {
  /** Fewer samples and shorter streams, results to bench/results/tmp/. */
  quick: boolean;
  /**
   * `--only=<part>`: run one part of a benchmark that has several (it says which); results
   * go to bench/results/tmp/, like a quick run, as they are not the whole record.
   */
  only?: string | undefined;
}

export interface Bench {
  name: string;
  run(opts: BenchOptions): Promise<BenchResult>;
}

const RESULTS = path.join(ROOT, 'bench', 'results');

/** A fixed-width text table. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function metRow(m: Metric): string {
  if (m.met === undefined) return '';
  return m.met ? 'yes' : 'NO';
}

/** Prints a result as a table (metric, measured, target, met). */
export function printResult(r: BenchResult): void {
  const rows = r.metrics.map((m) => [m.name, m.value, m.target ?? '', metRow(m)]);
  process.stdout.write(`\n== ${r.title} ==\n`);
  process.stdout.write(`${formatTable(['metric', 'measured', 'target', 'met'], rows)}\n`);
  for (const n of r.notes) process.stdout.write(`  note: ${n}\n`);
}

/** Writes the result with the machine it ran on; returns the file written. */
export function writeResult(r: BenchResult, opts: BenchOptions, machine: MachineInfo): string {
  // Quick runs and experiments on another entry never overwrite the recorded results.
  const experiment = process.env.COGITO_BENCH_ENTRY;
  const dir = opts.quick || opts.only || experiment ? path.join(RESULTS, 'tmp') : RESULTS;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${r.name}.json`);
  const payload = {
    name: r.name,
    title: r.title,
    quick: opts.quick,
    machine,
    command: `npx tsx bench/${r.name}.ts${opts.quick ? ' --quick' : ''}${opts.only ? ` --only=${opts.only}` : ''}`,
    ...(experiment ? { entry: experiment } : {}),
    metrics: r.metrics,
    notes: r.notes,
    details: r.details,
  };
  fs.writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}

/** Parses the flags every benchmark accepts. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  return { quick: argv.includes('--quick'), only };
}

/** Runs one benchmark, prints and records it. */
export async function runAndRecord(bench: Bench, opts: BenchOptions): Promise<BenchResult> {
  const machine = machineInfo();
  const started = performance.now();
  const result = await bench.run(opts);
  result.details.wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  result.details.loadAvg1AtEnd = machineInfo().loadAvg1;
  printResult(result);
  const file = writeResult(result, opts, machine);
  process.stdout.write(`  written: ${path.relative(ROOT, file)}\n`);
  return result;
}

/** True when `moduleUrl` is the script node was started with (run alone, not imported). */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(path.resolve(entry)).href === moduleUrl;
}

/** The standard entry for a benchmark file run on its own. */
export async function mainFor(bench: Bench, moduleUrl: string): Promise<void> {
  if (!isMain(moduleUrl)) return;
  try {
    await runAndRecord(bench, parseBenchArgs(process.argv.slice(2)));
    process.exit(0);
  } catch (err) {
    process.stderr.write(`${bench.name}: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  }
}
