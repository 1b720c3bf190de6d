/**
 * The bundle a checkout runs: `dist/cogito.mjs` when it matches the sources, rebuilt first
 * when it does not. There is no silent slow path: a rebuild says so on stderr (it takes about
 * a second and a half), and when it cannot be made the sources run through tsx with a line
 * that says why the start is slow and how to fix it.
 *
 * Starts at the same moment (a test run, two terminals) must not build over each other: the
 * first takes a lock (a directory, created atomically), the others wait for it and then use
 * what it built. A lock whose owner is gone is taken over.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildState } from './buildState.mjs';

/** Longest wait for another start's rebuild before building anyway. */
const LOCK_WAIT_MS = 60_000;

/**
 * `node scripts/build.mjs` in a process of its own: esbuild's module and the ~40 MB of build
 * output it hands back would otherwise stay in the program's memory for its whole session
 * (an idle screen at 130 MB after a rebuild against 80 MB without). Rejects with the build's
 * own error output.
 */
function buildInChild(root) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'scripts', 'build.mjs')],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        // esbuild's own line ("src/x.ts:3:7: ERROR: Could not resolve …") says more than
        // its heading ("Build failed with 1 error:").
        const lines = String(stderr)
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        const said = lines.find((line) => line.includes('ERROR:')) ?? lines[0];
        reject(new Error(said?.replace(/^cogito: the build failed: /, '') ?? error.message));
      },
    );
  });
}

/** Whether a process with this pid is alive (signal 0 probes without signalling). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the build lock, waiting for a live owner; returns its release. */
async function takeLock(root, stderr) {
  const lock = path.join(root, 'dist.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let said = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // Just made, its pid not yet written: wait a moment like for any owner.
    }
    if ((Number.isInteger(owner) && owner > 0 && !alive(owner)) || Date.now() > deadline) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!said) {
      stderr.write('cogito: another cogito is rebuilding this checkout; waiting for it…\n');
      said = true;
    }
    await sleep(50);
  }
}

/**
 * The bundle's path, rebuilt first when stale; undefined when it could not be built (the
 * caller runs the sources; the reason is already on stderr).
 * @param {string} root the checkout
 * @param {{ stderr: { write(text: string): unknown }, build?: () => Promise<unknown> }} io
 */
export async function checkoutBuild(root, io) {
  const entry = path.join(root, 'dist', 'cogito.mjs');
  if (buildState(root).fresh) return entry;
  const release = await takeLock(root, io.stderr);
  try {
    // Another start may have rebuilt it while this one waited.
    const state = buildState(root);
    if (state.fresh) return entry;
    io.stderr.write(`cogito: ${state.why}; rebuilding dist/ (npm run build)…\n`);
    const started = performance.now();
    const build = io.build ?? (() => buildInChild(root));
    await build();
    io.stderr.write(`cogito: rebuilt in ${Math.round(performance.now() - started)} ms\n`);
    return entry;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    io.stderr.write(
      `cogito: the rebuild failed (${reason}); running the TypeScript sources instead, which starts slower. Run "npm run build" to see why.\n`,
    );
    return undefined;
  } finally {
    release();
  }
}
