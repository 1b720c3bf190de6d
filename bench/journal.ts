/**
 * journal: what the change journal adds to a file write, on a real disk (a temporary folder).
 * - write cost: `create` over an existing file, raw and journaled (backup of the old content,
 *   the before/after snapshots, two journal lines), for a 1 KB and a 10 MB file; the added
 *   cost is the difference of the two, median and p99;
 * - backup store: its size after 1,000 edits of one file, each edit new content (one backup
 *   per distinct content), and after 1,000 edits flipping between two contents (two backups);
 * - bounds: `create` aimed at a 40 MB folder (refused before anything is read: time, bytes
 *   stored) and the store's peak over 30 overwrites of 1 MB files under undo.maxBytes 10 MB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../src/journal/journal.js';
import { withJournal } from '../src/journal/wrap.js';
import { createFileTools } from '../src/tools/files/index.js';
import type { Tool } from '../src/tools/types.js';
import { Workspace } from '../src/tools/workspace.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { bytes, ms, summarize, type Summary } from './lib/stats.js';

interface Setup {
  ws: string;
  workspace: Workspace;
  journal: Journal;
  raw: Tool;
  journaled: Tool;
  edit: Tool;
}

async function setup(
  dir: string,
  limits = { maxBytes: 500e6, maxFileBytes: 50e6 },
): Promise<Setup> {
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  const workspace = await Workspace.open(ws);
  const journal = Journal.open(path.join(dir, 'session'), path.join(dir, 'undo'), limits);
  const tools = withJournal(createFileTools(), () => journal);
  return {
    ws,
    workspace,
    journal,
    raw: createFileTools().find((t) => t.name === 'create')!,
    journaled: tools.find((t) => t.name === 'create')!,
    edit: tools.find((t) => t.name === 'edit')!,
  };
}

/** Alternates raw and journaled overwrites of one file; returns both sets of times (ms). */
async function writeCost(
  s: Setup,
  size: number,
  n: number,
): Promise<{ raw: number[]; journaled: number[] }> {
  const ctx = { workspace: s.workspace, signal: new AbortController().signal };
  const content = (i: number): string => `${i} `.padEnd(size, 'x');
  await s.raw.run(['f.txt', content(-1)], ctx);
  const raw: number[] = [];
  const journaled: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [tool, out] of [
      [s.raw, raw],
      [s.journaled, journaled],
    ] as const) {
      const t = performance.now();
      const r = await tool.run(['f.txt', content(i * 2 + (out === raw ? 0 : 1))], ctx);
      out.push(performance.now() - t);
      if (!r.ok) throw new Error(r.error.message);
    }
  }
  return { raw, journaled };
}

/** Edits one ~4 KB file `n` times; `flip` alternates between two contents. */
async function storeAfterEdits(
  s: Setup,
  n: number,
  flip: boolean,
): Promise<{ bytes: number; blobs: number }> {
  const ctx = { workspace: s.workspace, signal: new AbortController().signal };
  const body = 'a line of a notes file that the agent keeps editing\n'.repeat(80);
  await s.raw.run(['notes.md', `v0\n${body}`], ctx);
  for (let i = 1; i <= n; i++) {
    const from = fs.readFileSync(path.join(s.ws, 'notes.md'), 'utf8').split('\n')[0]!;
    const to = flip ? (from === 'v0' ? 'v1' : 'v0') : `v${i}`;
    const r = await s.edit.run(['notes.md', `${from}\n`, `${to}\n`], ctx);
    if (!r.ok) throw new Error(r.error.message);
  }
  const dir = s.journal.blobs.dir;
  const blobs = fs
    .readdirSync(dir)
    .reduce((k, sub) => k + fs.readdirSync(path.join(dir, sub)).length, 0);
  return { bytes: s.journal.blobs.bytes, blobs };
}

/**
 * `create` aimed at a 40 MB folder (40 files of 1 MB), which the journal refuses before
 * reading anything: the time per refused call and what the backup store holds after.
 */
async function folderTarget(dir: string, n: number): Promise<{ ms: number[]; stored: number }> {
  const s = await setup(dir, { maxBytes: 10 * 1024 * 1024, maxFileBytes: 5 * 1024 * 1024 });
  fs.mkdirSync(path.join(s.ws, 'big'));
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(s.ws, 'big', `f${i}.bin`), mb.fill(i));
  const ctx = { workspace: s.workspace, signal: new AbortController().signal };
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await s.journaled.run(['big', 'payload'], ctx);
    times.push(performance.now() - t);
    if (r.ok) throw new Error('create over a folder was not refused');
  }
  return { ms: times, stored: s.journal.blobs.bytes };
}

/** 30 overwrites of 1 MB files, each with new old content, under undo.maxBytes 10 MB. */
async function underCap(dir: string): Promise<{ peak: number; evicted: number }> {
  const s = await setup(dir, { maxBytes: 10 * 1024 * 1024, maxFileBytes: 50 * 1024 * 1024 });
  const ctx = { workspace: s.workspace, signal: new AbortController().signal };
  let peak = 0;
  for (let i = 0; i < 30; i++) {
    fs.writeFileSync(path.join(s.ws, `f${i}.bin`), Buffer.alloc(1024 * 1024, i));
    const r = await s.journaled.run([`f${i}.bin`, 'small'], ctx);
    if (!r.ok) throw new Error(r.error.message);
    peak = Math.max(peak, s.journal.blobs.bytes);
  }
  return { peak, evicted: s.journal.evicted.size };
}

function added(raw: Summary, journaled: Summary): string {
  return `p50 +${ms(journaled.p50 - raw.p50)}, p99 +${ms(journaled.p99 - raw.p99)}`;
}

export const journal: Bench = {
  name: 'journal',
  async run({ quick }): Promise<BenchResult> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-journal-'));
    try {
      const small = await setup(path.join(dir, 'small'));
      await writeCost(small, 1024, 20); // warm-up, not recorded
      const s = await writeCost(small, 1024, quick ? 50 : 300);
      const big = await setup(path.join(dir, 'big'));
      const b = await writeCost(big, 10 * 1024 * 1024, quick ? 5 : 20);
      const edits = quick ? 200 : 1000;
      const distinct = await storeAfterEdits(await setup(path.join(dir, 'distinct')), edits, false);
      const flipping = await storeAfterEdits(await setup(path.join(dir, 'flip')), edits, true);
      const folder = await folderTarget(path.join(dir, 'folder'), quick ? 20 : 100);
      const capped = await underCap(path.join(dir, 'capped'));
      const fr = summarize(folder.ms);
      const sr = summarize(s.raw);
      const sj = summarize(s.journaled);
      const br = summarize(b.raw);
      const bj = summarize(b.journaled);
      const metrics: Metric[] = [
        { name: 'write 1 KB, raw', value: `p50 ${ms(sr.p50)}, p99 ${ms(sr.p99)}`, raw: sr.p50 },
        {
          name: 'write 1 KB, journaled',
          value: `p50 ${ms(sj.p50)}, p99 ${ms(sj.p99)}`,
          raw: sj.p50,
        },
        { name: 'journal cost, 1 KB', value: added(sr, sj), raw: sj.p50 - sr.p50 },
        { name: 'write 10 MB, raw', value: `p50 ${ms(br.p50)}, p99 ${ms(br.p99)}`, raw: br.p50 },
        {
          name: 'write 10 MB, journaled',
          value: `p50 ${ms(bj.p50)}, p99 ${ms(bj.p99)}`,
          raw: bj.p50,
        },
        { name: 'journal cost, 10 MB', value: added(br, bj), raw: bj.p50 - br.p50 },
        {
          name: `backup store after ${edits} edits (new content each)`,
          value: `${bytes(distinct.bytes)} in ${distinct.blobs} blobs`,
          raw: distinct.bytes,
        },
        {
          name: `backup store after ${edits} edits (two contents)`,
          value: `${bytes(flipping.bytes)} in ${flipping.blobs} blobs`,
          raw: flipping.bytes,
        },
        {
          name: 'create aimed at a 40 MB folder (refused)',
          value: `p50 ${ms(fr.p50)}, p99 ${ms(fr.p99)}; ${bytes(folder.stored)} stored`,
          raw: fr.p50,
        },
        {
          name: 'backup store peak, 30 × 1 MB overwrites, undo.maxBytes 10 MB',
          value: `${bytes(capped.peak)} (${capped.evicted} oldest backups removed)`,
          raw: capped.peak,
        },
      ];
      return {
        name: 'journal',
        title: 'journal (the change journal on a temporary folder)',
        metrics,
        notes: [
          'create over an existing file, raw and journaled alternately; the real atomic write (with its fsync) in both.',
          'The journaled write backs up the old content (a copy into the store), hashes before and after, and appends two journal lines.',
          'The edited file is ~4 KB; each edit changes its first line.',
          'A folder target is refused before anything under it is read; the cap counts the change in progress, so the store never passes undo.maxBytes.',
        ],
        details: { smallMs: s, bigMs: b, distinct, flipping, folderMs: folder.ms, capped },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(journal, import.meta.url);
