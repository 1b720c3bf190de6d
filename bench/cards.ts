/**
 * cards: what showing everything costs (issue 23.8, 24.8).
 * - the approval card's rows for a 1 MB write (call and detail wrapped at 100 columns), once
 *   per card: what paging then shows is a slice of them;
 * - the unified diff of a 1 MB file with one line changed, and of two unrelated 100 KB texts;
 * - `create` over an existing 4 KB file, run by the tool: the read and diff it now adds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approvalRows } from '../components/approval/cardRows.js';
import { unifiedDiff } from '../src/diff/unifiedDiff.js';
import { createFileTools } from '../src/tools/files/index.js';
import { Workspace } from '../src/tools/workspace.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { ms, summarize } from './lib/stats.js';

function times(n: number, f: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    out.push(performance.now() - t);
  }
  return out;
}

const lines = (n: number, p: string): string =>
  Array.from({ length: n }, (_, i) => `${p} line ${i} ${'x'.repeat(40)}`).join('\n');

async function createCost(n: number): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-cards-'));
  try {
    const workspace = await Workspace.open(dir);
    const ctx = { workspace, signal: new AbortController().signal };
    const create = createFileTools().find((t) => t.name === 'create')!;
    const base = lines(80, 'v');
    await create.run(['f.txt', base], ctx);
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await create.run(['f.txt', `${i}\n${base}`], ctx);
      out.push(performance.now() - t);
      if (!r.ok || r.diff === undefined) throw new Error('no diff');
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const cards: Bench = {
  name: 'cards',
  async run({ quick }): Promise<BenchResult> {
    const n = quick ? 3 : 10;
    const content = lines(20_000, 'a');
    const request = {
      id: 1,
      tool: 'create',
      kind: 'write' as const,
      call: `create("a.txt", ${JSON.stringify(content)})`,
      reason: 'it asks',
      detail: content,
      detailKind: 'text' as const,
    };
    let rowCount = 0;
    const card = summarize(times(n, () => (rowCount = approvalRows(request, 100, 'en').length)));
    const edited = content.replace('a line 10000 ', 'a line 10000 CHANGED ');
    const small = summarize(times(n, () => unifiedDiff('a.txt', content, edited)));
    const apart = summarize(
      times(n, () => unifiedDiff('a.txt', lines(2_000, 'p'), lines(2_000, 'q'))),
    );
    const create = summarize(await createCost(quick ? 20 : 100));
    const metrics: Metric[] = [
      {
        name: `card rows, 1 MB write (${rowCount} rows)`,
        value: `p50 ${ms(card.p50)}, max ${ms(card.max)}`,
        raw: card.p50,
      },
      {
        name: 'diff, 1 MB file, one line changed',
        value: `p50 ${ms(small.p50)}, max ${ms(small.max)}`,
        raw: small.p50,
      },
      {
        name: 'diff, two unrelated 100 KB texts',
        value: `p50 ${ms(apart.p50)}, max ${ms(apart.max)}`,
        raw: apart.p50,
      },
      {
        name: 'create over a 4 KB file (with its diff)',
        value: `p50 ${ms(create.p50)}, p99 ${ms(create.p99)}`,
        raw: create.p50,
      },
    ];
    return {
      name: 'cards',
      title: 'cards (approval card rows and unified diffs)',
      metrics,
      notes: [
        'Card rows are computed once per card (useScreenView memoises them); paging slices them.',
        'Diffs of files over 1 MB are not attempted: the card says so and shows the new content.',
      ],
      details: { card, small, apart, create },
    };
  },
};

await mainFor(cards, import.meta.url);
