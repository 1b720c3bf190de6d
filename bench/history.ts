/**
 * history: the session files on a real disk (a temporary folder).
 * - load: opening a 10,000-message session (read, parse, replay), and resuming the latest
 *   session the way start-up does (which also lists and counts every session);
 * - append: the cost of one message when the session holds 100 and 10,000 messages, for
 *   both durability settings. An append-only log should cost the same at both sizes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionStore } from '../src/history/index.js';
import type { Durability } from '../src/history/index.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { sampleMessage, writeSession } from './lib/sessionData.js';
import { ms, summarize, type Summary } from './lib/stats.js';

const us = (x: number): string =>
  x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${Math.round(x)} µs`;

/** Times `n` appends to the session `id` (loaded fresh), returns per-append microseconds. */
async function appendCost(
  dataDir: string,
  id: string,
  n: number,
  durability: Durability,
): Promise<number[]> {
  const store = new SessionStore(dataDir, { durability });
  const session = await store.open(id);
  const start = session.messages().length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const msg = sampleMessage(start + i);
    const t = performance.now();
    const res = session.append(msg);
    out.push((performance.now() - t) * 1000); // microseconds
    if (!res.ok) throw new Error(res.error.message);
  }
  session.close();
  return out;
}

/** Copies a session folder, so each measurement starts from the same size. */
function cloneSession(dataDir: string, id: string, suffix: string): string {
  const src = path.join(dataDir, 'sessions', id);
  const copyId = `${id.slice(0, -3)}${suffix}`;
  fs.cpSync(src, path.join(dataDir, 'sessions', copyId), { recursive: true });
  return copyId;
}

export const history: Bench = {
  name: 'history',
  async run({ quick }): Promise<BenchResult> {
    const loads = quick ? 3 : 10;
    const appends = quick ? 200 : 1000;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-history-'));
    try {
      const bigDir = path.join(dir, 'big');
      const smallDir = path.join(dir, 'small');
      const big = await writeSession(bigDir, 10_000);
      const small = await writeSession(smallDir, 100);
      const fileBytes = fs.statSync(path.join(bigDir, 'sessions', big, 'history.jsonl')).size;

      const open: number[] = [];
      const resume: number[] = [];
      for (let i = 0; i < loads; i++) {
        let t = performance.now();
        const s = await new SessionStore(bigDir).open(big);
        open.push(performance.now() - t);
        if (s.messages().length !== 10_000)
          throw new Error(`loaded ${s.messages().length} messages`);
        s.close();
        t = performance.now();
        const r = await new SessionStore(bigDir).openLatestOrCreate();
        resume.push(performance.now() - t);
        r.close();
      }

      // Warm-up (JIT), not recorded.
      await appendCost(smallDir, cloneSession(smallDir, small, 'x00'), 200, 'write');
      const cost: Record<string, Summary> = {};
      const raw: Record<string, number[]> = {};
      for (const durability of ['write', 'fsync'] as const) {
        const n = durability === 'fsync' ? Math.min(appends, 200) : appends;
        for (const [label, dataDir, id] of [
          ['100', smallDir, small],
          ['10000', bigDir, big],
        ] as const) {
          const copy = cloneSession(dataDir, id, durability === 'write' ? 'w00' : 'f00');
          const xs = await appendCost(dataDir, copy, n, durability);
          // The first append opens the file: report it apart from the steady cost.
          raw[`${durability}@${label}`] = xs;
          cost[`${durability}@${label}`] = summarize(xs.slice(1));
        }
      }
      const sOpen = summarize(open);
      const sResume = summarize(resume);
      const w100 = cost['write@100']!;
      const w10k = cost['write@10000']!;
      const ratio = w10k.p50 / w100.p50;
      const f100 = cost['fsync@100']!;
      const f10k = cost['fsync@10000']!;
      const metrics: Metric[] = [
        {
          name: 'load a 10,000-message session',
          value: `p50 ${ms(sOpen.p50)} (${(fileBytes / 1e6).toFixed(1)} MB file)`,
          raw: sOpen.p50,
        },
        {
          name: 'resume latest (list + count + load)',
          value: `p50 ${ms(sResume.p50)}`,
          raw: sResume.p50,
        },
        {
          name: 'append at 100 messages (durability write)',
          value: `p50 ${us(w100.p50)}, p99 ${us(w100.p99)}`,
          raw: w100.p50,
        },
        {
          name: 'append at 10,000 messages (durability write)',
          value: `p50 ${us(w10k.p50)}, p99 ${us(w10k.p99)}`,
          raw: w10k.p50,
        },
        {
          name: 'append cost ratio 10,000 / 100',
          value: `${ratio.toFixed(2)}×`,
          raw: ratio,
          target: 'flat (≈ 1×)',
          met: ratio < 1.5,
        },
        {
          name: 'append with fsync at 100 → 10,000',
          value: `p50 ${us(f100.p50)} → ${us(f10k.p50)}`,
          raw: f10k.p50,
        },
      ];
      return {
        name: 'history',
        title: 'history (session files in a temporary folder)',
        metrics,
        notes: [
          `${appends} appends per size (200 with fsync); the first append of each run, which opens the file, is left out of the summary.`,
          '"flat" is read as: the median append at 10,000 messages is within 1.5× of the median at 100.',
        ],
        details: {
          openMs: open,
          resumeMs: resume,
          appendSummariesMicroseconds: cost,
          firstAppendMicroseconds: Object.fromEntries(
            Object.entries(raw).map(([k, v]) => [k, v[0]]),
          ),
          historyFileBytes: fileBytes,
        },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(history, import.meta.url);
