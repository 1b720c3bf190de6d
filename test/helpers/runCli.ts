/**
 * Runs the real `cogito` program (bin/cogito.ts through tsx) as a child process, collecting
 * its output, for tests that need the exit code a user would see.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A started run of the program. */
export interface CliRun {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `cogito args…` with only PATH and HOME inherited, plus `env`. */
export function runCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bin/cogito.ts'), ...args],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return {
    code: new Promise((resolve) => child.on('close', (c) => resolve(c))),
    stdout: () => out,
    stderr: () => err,
    kill: (s) => child.kill(s),
  };
}
