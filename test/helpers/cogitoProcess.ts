/** Runs `bin/cogito.ts` as a child process (through tsx) and collects its output. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** tsx's loader by its path: `--import tsx` resolves from the cwd, which may be anywhere. */
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface CogitoRun {
  /** The process's id (the one a lock file names). */
  pid: number | undefined;
  code: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts cogito with `args`, only PATH and HOME from this environment plus `env`, in the
 * folder `opts.cwd` (default: the project folder).
 */
export function runCogito(
  args: string[],
  env: Record<string, string>,
  opts: { cwd?: string } = {},
): CogitoRun {
  const child = spawn(
    process.execPath,
    ['--import', TSX, path.join(ROOT, 'bin/cogito.ts'), ...args],
    {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return {
    pid: child.pid,
    code: new Promise((resolve) => child.on('close', (c) => resolve(c))),
    stdout: () => out,
    stderr: () => err,
    kill: (s) => child.kill(s),
  };
}
