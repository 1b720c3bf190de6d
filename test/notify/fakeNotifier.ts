/**
 * Fake notifiers for the notify tests: real programs on a temporary PATH that record each
 * call in a file (one JSON line per call), so the tests see what the real ones would get.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface FakeNotifier {
  /** A folder to put first on PATH: it holds `notify-send`. */
  bin: string;
  /** The recorded calls, oldest first: argv for notify-send, stdin for the command. */
  calls(): Promise<unknown[]>;
  /** `notify.command` as argv: node running the recorder that reads stdin. */
  command: string[];
  env: NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

// Node, not sh: argv and stdin are recorded exactly, whatever characters they hold.
const RECORD_ARGV = `#!${process.execPath}
require('node:fs').appendFileSync(process.env.FAKE_NOTIFY_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
`;
const RECORD_STDIN = `
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  require('node:fs').appendFileSync(process.env.FAKE_NOTIFY_LOG, JSON.stringify(JSON.parse(input)) + '\\n');
});
`;

export async function createFakeNotifier(): Promise<FakeNotifier> {
  const bin = await mkdtemp(path.join(os.tmpdir(), 'cogito-notify-'));
  const log = path.join(bin, 'calls.jsonl');
  await writeFile(path.join(bin, 'notify-send'), RECORD_ARGV);
  await chmod(path.join(bin, 'notify-send'), 0o755);
  await writeFile(path.join(bin, 'record-stdin.cjs'), RECORD_STDIN);
  return {
    bin,
    command: [process.execPath, path.join(bin, 'record-stdin.cjs')],
    env: {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_NOTIFY_LOG: log,
    },
    async calls() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown);
    },
    dispose: () => rm(bin, { recursive: true, force: true }),
  };
}
