/**
 * sandbox: what the `run` tool's sandbox costs per command. The same command (`true`, and a
 * small `ls`) is run through the run tool with the sandbox off (`/bin/sh -c` alone) and on
 * (bubblewrap: mounts, namespaces, the limits line), alternately, on a temporary workspace;
 * then the undo snapshot's cost on a workspace of 1,000 small files (the state read before
 * and after a command that can write, every file's content already in the store).
 *
 *   npx tsx bench/sandbox.ts            200 runs of each
 *   npx tsx bench/sandbox.ts --quick    30 runs of each
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../src/journal/journal.js';
import { withRunJournal } from '../src/journal/runJournal.js';
import { createRunTool, isReadOnlyCall, type RunSettings } from '../src/tools/process/run.js';
import type { Tool, ToolArg } from '../src/tools/types.js';
import { Workspace } from '../src/tools/workspace.js';
import { mainFor, type Bench } from './lib/report.js';

const SETTINGS: RunSettings = {
  timeoutMs: 30_000,
  maxOutputChars: 16_000,
  sandbox: 'bubblewrap',
  maxBackground: 4,
  backgroundTimeoutMs: 60_000,
  readOnlyCommands: [],
};

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (n: number): string => `${n.toFixed(1)} ms`;

async function timeRuns(tool: Tool, ws: Workspace, args: ToolArg[], n: number): Promise<number[]> {
  const out: number[] = [];
  const signal = new AbortController().signal;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await tool.run(args, { workspace: ws, signal });
    out.push(performance.now() - t0);
    if (!r.ok) throw new Error(`run failed: ${r.error.message}`);
  }
  return out.sort((a, b) => a - b);
}

export const sandbox: Bench = {
  name: 'sandbox',
  async run(opts) {
    const n = opts.quick ? 30 : 200;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-sandbox-'));
    try {
      const root = path.join(dir, 'ws');
      fs.mkdirSync(root);
      for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(root, `f${i}.txt`), `file ${i}\n`);
      const ws = await Workspace.open(root);
      const bare = createRunTool({ settings: { ...SETTINGS, sandbox: 'off' }, hidden: [] });
      const boxed = createRunTool({ settings: SETTINGS, hidden: [] });
      // Warm up both (the sandbox check runs once; execa loads once).
      await timeRuns(bare, ws, ['true'], 3);
      await timeRuns(boxed, ws, ['true'], 3);
      const samples: Record<string, number[]> = {};
      for (const [label, args] of [
        ['true', ['true']],
        ['ls', ['ls -la']],
      ] as const) {
        samples[`${label} bare`] = await timeRuns(bare, ws, [...args], n);
        samples[`${label} sandboxed`] = await timeRuns(boxed, ws, [...args], n);
      }
      // The undo snapshot: 1,000 files of 1 KB, a command that writes one of them.
      const big = path.join(dir, 'big');
      fs.mkdirSync(big);
      for (let i = 0; i < 1000; i++) {
        fs.writeFileSync(path.join(big, `f${i}.txt`), `${i}`.repeat(1024).slice(0, 1024));
      }
      const bigWs = await Workspace.open(big);
      const sessionDir = path.join(dir, 'session');
      const journal = Journal.open(sessionDir, path.join(dir, 'blobs'), {
        maxBytes: 500 * 1024 * 1024,
        maxFileBytes: 50 * 1024 * 1024,
      });
      const journaled = withRunJournal(boxed, () => journal, {
        readOnly: (args) => isReadOnlyCall(args, SETTINGS),
      });
      const write = ['date > f0.txt'];
      const first = await timeRuns(journaled, bigWs, write, 1);
      samples['write, 1,000-file workspace, journaled'] = await timeRuns(
        journaled,
        bigWs,
        write,
        Math.ceil(n / 4),
      );
      samples['write, 1,000-file workspace, not journaled'] = await timeRuns(
        boxed,
        bigWs,
        write,
        Math.ceil(n / 4),
      );
      journal.close();
      const p50 = (k: string): number => quantile(samples[k]!, 0.5);
      const p95 = (k: string): number => quantile(samples[k]!, 0.95);
      const metric = (k: string) => ({
        name: k,
        value: `p50 ${ms(p50(k))}, p95 ${ms(p95(k))}`,
        raw: p50(k),
      });
      const overhead = p50('true sandboxed') - p50('true bare');
      return {
        name: 'sandbox',
        title: 'sandbox (run tool: bubblewrap against bare /bin/sh -c)',
        metrics: [
          ...Object.keys(samples).map(metric),
          { name: 'sandbox overhead per command (p50, true)', value: ms(overhead), raw: overhead },
          {
            name: 'first journaled write (every file hashed and stored)',
            value: ms(first[0]!),
            raw: first[0]!,
          },
        ],
        notes: [
          'Both go through the run tool (execa, its own process group, output capture); the sandboxed one adds bwrap (mounts, new namespaces) and the limits line of /bin/sh.',
          'The journaled write reads the workspace state before and after (hashes reused for files whose size, times and inode did not change) and journals the one file changed.',
        ],
        details: { runs: n, samples },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(sandbox, import.meta.url);
