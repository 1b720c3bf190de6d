/**
 * The undo property: whatever sequence of file changes the agent makes, `/undo all` brings
 * the workspace back byte for byte, mode bits included (the trash aside). Sequences are
 * random but seeded, so a failure names the seed that reproduces it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { undoChanges } from '../../src/journal/undo.js';
import { TRASH_DIR } from '../../src/tools/files/index.js';
import type { ToolArg } from '../../src/tools/types.js';
import { journalFixture, seedMixed, treeOf, type JournalFixture } from './fixture.js';
import { mulberry32 as rng } from '../helpers/rng.js';

const SEQUENCES = Number(process.env.UNDO_SEQUENCES ?? 200);
const MAX_STEPS = 30;

const NAMES = ['a.txt', 'b.md', '数据.txt', 'c', 'new dir', '文件夹', 'x.bin', 'run2.sh'];

function listing(ws: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(path.join(ws, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === TRASH_DIR) continue;
      if (fs.statSync(path.join(ws, r)).isDirectory()) {
        dirs.push(r);
        walk(r);
      } else files.push(r);
    }
  };
  walk('');
  return { files, dirs };
}

/** One random step: a tool call the agent could make. */
function step(fx: JournalFixture, rand: () => number): [string, ToolArg[]] {
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rand() * xs.length)];
  const { files, dirs } = listing(fx.ws);
  const anyPath = pick([...files, ...dirs]) ?? 'notes.txt';
  const freshName = (): string => {
    const dir =
      rand() < 0.5 ? (pick(dirs) ?? '') : rand() < 0.5 ? `新-${Math.floor(rand() * 9)}` : '';
    return `${dir ? `${dir}/` : ''}${pick(NAMES)}-${Math.floor(rand() * 1000)}`;
  };
  const text = (): string =>
    `text ${Math.floor(rand() * 1e6)} 内容\n`.repeat(1 + Math.floor(rand() * 3));
  switch (Math.floor(rand() * 9)) {
    case 0:
      return ['create', [freshName(), rand() < 0.2 ? '' : text()]];
    case 1:
      return ['create', [pick(files) ?? 'notes.txt', text()]]; // create-overwrite
    case 2: {
      const f = pick(files) ?? 'notes.txt';
      const content = fs.readFileSync(path.join(fx.ws, f), 'utf8');
      return ['edit', [f, content.slice(0, Math.max(1, content.length)) || 'x', text()]];
    }
    case 3:
      return ['copy', [anyPath, freshName()]];
    case 4:
      return ['copy', [pick(files) ?? 'notes.txt', pick(files) ?? 'empty.txt']]; // copy-over
    case 5:
      return ['move', [pick(files) ?? 'notes.txt', freshName()]];
    case 6:
      return ['move', [pick(dirs) ?? 'docs', freshName()]];
    case 7:
      return ['mkdir', [`${freshName()}/${rand() < 0.5 ? 'deep/er' : 'one'}`]];
    default:
      return ['delete', [anyPath]];
  }
}

/** Runs one seeded sequence, undoes it all and compares; returns how many changes it made. */
async function runSequence(seed: number): Promise<number> {
  const fx = await journalFixture(seedMixed);
  try {
    const before = await treeOf(fx.ws);
    const rand = rng(seed);
    const steps = 1 + Math.floor(rand() * MAX_STEPS);
    const done: string[] = [];
    for (let i = 0; i < steps; i++) {
      const [name, args] = step(fx, rand);
      const r = await fx.call(name, args, `turn-${Math.floor(i / 3)}`);
      done.push(`${name}(${JSON.stringify(args)}) → ${r.ok ? 'ok' : r.error.kind}`);
    }
    const changes = fx.journal.entries().filter((e) => e.state === 'done').length;
    // A restart in between: undo works from what is on disk.
    fx.reopen();
    const out = await undoChanges(fx.journal, fx.workspace, { kind: 'all' }, false);
    const context = `seed ${seed}:\n${done.join('\n')}\n${JSON.stringify(out)}`;
    expect(out.kind === 'undone' || out.kind === 'nothing', context).toBe(true);
    if (out.kind === 'undone') expect(out.problems, context).toEqual([]);
    expect(await treeOf(fx.ws), context).toEqual(before);
    return changes;
  } finally {
    fx.cleanup();
  }
}

/** Sequences run a few at a time: each has its own folders, and the work is mostly waiting on I/O. */
const PARALLEL = 8;

describe('undo all restores the tree byte for byte', () => {
  it(`holds for ${SEQUENCES} seeded sequences of up to ${MAX_STEPS} steps`, async () => {
    let changes = 0;
    for (let first = 1; first <= SEQUENCES; first += PARALLEL) {
      const seeds = Array.from(
        { length: Math.min(PARALLEL, SEQUENCES - first + 1) },
        (_, i) => first + i,
      );
      for (const n of await Promise.all(seeds.map(runSequence))) changes += n;
    }
    // The sequences really changed things (not 200 runs of failed calls).
    expect(changes).toBeGreaterThan(SEQUENCES * 3);
  }, 180_000);
});
