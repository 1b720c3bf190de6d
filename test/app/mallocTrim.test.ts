/**
 * The C allocator's free pages go back to the system when the idle collection trims it
 * (src/app/mallocTrim.ts): shown in a fresh process that fills glibc's heap with buffers,
 * frees all but every 64th (so the freed pages lie between live ones, where a plain free()
 * never returns them), and reads its RSS before and after the trim.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createMallocTrim } from '../../src/app/mallocTrim.js';
import { runToEnd } from '../helpers/runToEnd.js';

const isGlibcLinux =
  process.platform === 'linux' &&
  Boolean(
    (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
      ?.header?.glibcVersionRuntime,
  );

describe('the allocator trim', () => {
  test.runIf(isGlibcLinux)('gives freed pages between live ones back to the system', async () => {
    const module = path.resolve('src/app/mallocTrim.ts');
    const script = `
      const { createMallocTrim } = await import(${JSON.stringify(module)});
      const rss = () => process.memoryUsage().rss / 1048576;
      let buffers = Array.from({ length: 40000 }, () => Buffer.allocUnsafeSlow(4000).fill(1));
      const kept = buffers.filter((_, i) => i % 64 === 0);
      buffers = undefined;
      for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 50)); }
      const before = rss();
      const ran = createMallocTrim()();
      console.log(JSON.stringify({ ran, before, after: rss(), kept: kept.length }));
    `;
    const run = await runToEnd(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: process.cwd(), env: process.env },
    );
    expect(run.stderr).toBe('');
    const { ran, before, after } = JSON.parse(run.stdout) as Record<string, number | boolean>;
    expect(ran).toBe(true);
    // ~160 MB of buffers were freed; the trim returns most of it.
    expect((before as number) - (after as number)).toBeGreaterThan(80);
  });

  test('is a no-op where there is no glibc: nothing is loaded, nothing thrown', () => {
    expect(createMallocTrim('darwin')()).toBe(false);
    expect(createMallocTrim('win32')()).toBe(false);
  });
});
