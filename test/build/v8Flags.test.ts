/**
 * bin/v8Flags.js keeps V8's optimizing compiler away from yoga, Ink's layout engine (the
 * process's only WebAssembly): tiering yoga up took ~28 MB of compiler memory at the screen's
 * first reply, which glibc then kept as idle RSS. Shown the way a user's screen meets it:
 * yoga laying out a screen's worth of boxes thousands of times, in a fresh process, with and
 * without the settings, reading V8's own count of the compiler memory it allocated.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runToEnd } from '../helpers/runToEnd.js';

const flags = path.resolve('bin/v8Flags.js');
const yoga = path.resolve('node_modules/yoga-layout/dist/src/index.js');

/** Peak of V8's malloced (compiler and parser) memory in MB after 5,000 layouts. */
async function peakAfterLayouts(withFlags: boolean): Promise<number> {
  const script = `
    ${withFlags ? `await import(${JSON.stringify(flags)});` : ''}
    const v8 = await import('node:v8');
    const { default: Yoga } = await import(${JSON.stringify(yoga)});
    const root = Yoga.Node.create();
    root.setWidth(120);
    for (let i = 0; i < 60; i++) {
      const row = Yoga.Node.create();
      row.setFlexDirection(Yoga.FLEX_DIRECTION_ROW);
      for (let j = 0; j < 3; j++) {
        const text = Yoga.Node.create();
        text.setMeasureFunc((w) => ({ width: Math.min(w, 30 + j), height: 1 }));
        row.insertChild(text, j);
      }
      root.insertChild(row, i);
    }
    for (let k = 0; k < 5000; k++) {
      root.getChild(k % 60).getChild(0).markDirty();
      root.calculateLayout(120, 40, Yoga.DIRECTION_LTR);
    }
    // Background compile jobs still running finish before the count is read.
    await new Promise((r) => setTimeout(r, 300));
    console.log(v8.getHeapStatistics().peak_malloced_memory);
  `;
  const run = await runToEnd(process.execPath, ['--input-type=module', '-e', script], {
    cwd: process.cwd(),
    env: process.env,
  });
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim()) / 1024 / 1024;
}

const v8Major = Number(/^(\d+)/.exec(process.versions.v8)?.[1] ?? 0);

describe('the V8 settings of the program', () => {
  test('yoga never reaches the optimizing compiler: its compiler memory stays small', async () => {
    const [withFlags, without] = await Promise.all([
      peakAfterLayouts(true),
      peakAfterLayouts(false),
    ]);
    expect(withFlags).toBeLessThan(8);
    expect(withFlags).toBeLessThanOrEqual(without + 1);
    // Node 20 and 22 tier yoga up within these layouts (Node 24 did not here): there the
    // difference is the memory the settings save.
    if (v8Major < 13) expect(without - withFlags).toBeGreaterThan(3);
  });
});
