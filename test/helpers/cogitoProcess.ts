/** Runs `bin/cogito.ts` as a child process (through tsx) and collects its output. */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CogitoRun {
  code: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

/** Starts cogito with `args`, only PATH and HOME from this environment plus `env`. */
export function runCogito(args: string[], env: Record<string, string>): CogitoRun {
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
