/**
 * A throwaway app home and workspace for one benchmark run, and the environment the real
 * program gets: nothing from the caller's shell except PATH, so a stray `CI=true` (Ink
 * then stops drawing) or a real API key cannot change what is measured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder (holding package.json and bin/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The Node that runs the program: `--node=PATH` on a benchmark's command line or
 * `COGITO_BENCH_NODE=PATH` (e.g. a Node 24 binary, to measure it on a machine whose own Node
 * is 20), else the one running the benchmark.
 */
export const NODE =
  process.argv.find((arg) => arg.startsWith('--node='))?.slice('--node='.length) ??
  process.env.COGITO_BENCH_NODE ??
  process.execPath;

/**
 * The installed command: `node bin/cogito.js` (the build in dist/ when it is up to date, else
 * the TypeScript sources through tsx's loader).
 * `COGITO_BENCH_ENTRY=path/to/entry.mjs` swaps the entry file, to measure an experiment
 * (e.g. a bundled build) with the same benchmarks; recorded results always use bin/cogito.js.
 */
export const COGITO = [
  NODE,
  path.resolve(ROOT, process.env.COGITO_BENCH_ENTRY ?? path.join('bin', 'cogito.js')),
];

export interface BenchHome {
  dir: string;
  home: string;
  workspace: string;
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  cleanup(): void;
}

/**
 * A fresh home (with `config` as its config.json) and a workspace under the OS temp dir. Cogito
 * works in the folder it starts in: run it with `cwd: workspace` or `--workspace`.
 */
export function makeHome(
  baseURL: string,
  config: Record<string, unknown> = {},
  prefix = 'cogito-bench-',
): BenchHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'a note\n');
  fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  return {
    dir,
    home,
    workspace,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      COGITO_HOME: home,
      COGITO_BASE_URL: baseURL,
      COGITO_API_KEY: 'sk-bench',
      COGITO_MODEL: 'bench-model',
      ...extra,
    }),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
