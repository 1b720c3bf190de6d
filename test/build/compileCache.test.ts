/**
 * On Node 22.1+ the command turns on Node's compile cache (bin/cogito.js), so a second start
 * reuses V8's compiled code instead of compiling the bundle again; on Node 20, which has no
 * such cache, the command starts as before.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runToEnd } from '../helpers/runToEnd.js';

const hasCache =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const bin = path.resolve('bin/cogito.js');

describe('the compile cache', () => {
  let tmp = '';
  afterEach(async () => void (tmp && (await rm(tmp, { recursive: true, force: true }))));

  test.runIf(hasCache)('is written on Node 22.1+ (in the temporary folder)', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-ccache-'));
    // --help loads the bundle (--version alone is answered by bin/cogito.js itself).
    const run = await runToEnd(process.execPath, [bin, '--help'], {
      cwd: tmp,
      env: { ...process.env, TMPDIR: tmp, NODE_COMPILE_CACHE: undefined },
    });
    expect(run.code).toBe(0);
    const cacheDirs = await readdir(path.join(tmp, 'node-compile-cache'));
    expect(cacheDirs.length).toBeGreaterThan(0);
  });

  test.runIf(!hasCache)('is left alone where Node has none (Node 20)', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-ccache-'));
    const run = await runToEnd(process.execPath, [bin, '--help'], {
      cwd: tmp,
      env: { ...process.env, TMPDIR: tmp },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/cogito/);
    expect(await readdir(tmp)).not.toContain('node-compile-cache');
  });
});
