/**
 * The real program in a real pseudo-terminal, with every byte it writes timestamped.
 * A small python3 helper (`pty.py`) owns the terminal; times are CLOCK_MONOTONIC
 * milliseconds, the clock `monoNow()` reads here, so they compare with events in this process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monoNow } from './clock.js';
import { OutputLog } from './outputLog.js';

const HELPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pty.py');

export interface PtyOptions {
  cols?: number;
  rows?: number;
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export { stripAnsi, type Chunk } from './outputLog.js';

export class PtyApp extends OutputLog {
  /** CLOCK_MONOTONIC ms just before the fork. */
  spawnedAt = 0;
  pid = 0;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly sent = new Map<number, (t: number) => void>();
  private nextId = 1;
  private buffered = '';
  private readonly decoder = new TextDecoder('utf-8');
  private readonly started: Promise<void>;
  private readonly exited: Promise<number>;

  constructor(cmd: string[], opts: PtyOptions) {
    super();
    this.child = spawn(
      'python3',
      [HELPER, String(opts.cols ?? 100), String(opts.rows ?? 30), '--', ...cmd],
      { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let onStart!: () => void;
    this.started = new Promise((r) => (onStart = r));
    let onExit!: (code: number) => void;
    this.exited = new Promise((r) => (onExit = r));
    this.child.stderr.on('data', (d: Buffer) => process.stderr.write(`[pty] ${d.toString()}`));
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      const lines = this.buffered.split('\n');
      this.buffered = lines.pop() ?? '';
      for (const line of lines) {
        const msg = JSON.parse(line) as {
          spawn?: number;
          pid?: number;
          t?: number;
          o?: string;
          sent?: number;
          exit?: number;
        };
        if (msg.spawn !== undefined) {
          this.spawnedAt = msg.spawn;
          this.pid = msg.pid ?? 0;
          onStart();
        } else if (msg.o !== undefined) {
          const bytes = Buffer.from(msg.o, 'base64');
          this.record(msg.t!, this.decoder.decode(bytes, { stream: true }));
        } else if (msg.sent !== undefined) {
          this.sent.get(msg.sent)?.(msg.t!);
          this.sent.delete(msg.sent);
        } else if (msg.exit !== undefined) {
          this.exitCode = msg.exit;
          onExit(msg.exit);
        }
      }
      this.wake();
    });
    this.child.on('close', () => {
      if (this.exitCode === undefined) onExit((this.exitCode = -1));
      this.wake();
    });
  }

  /** Resolves once the program has been forked. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Writes keys to the terminal; resolves with the time they were written. */
  send(keys: string): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.sent.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ keys, id })}\n`);
    });
  }

  signal(sig: NodeJS.Signals): void {
    const n = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGHUP: 1 }[sig as string] ?? 15;
    this.child.stdin.write(`${JSON.stringify({ signal: n })}\n`);
  }

  /** Waits for the program to end (sending `sig` first when given); resolves with its code. */
  async stop(sig?: NodeJS.Signals, timeoutMs = 5000): Promise<number> {
    if (sig && this.exitCode === undefined) this.signal(sig);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    this.child.stdin.end();
    return code;
  }

  /** Resolves when the program has ended. */
  exit(): Promise<number> {
    return this.exited;
  }

  /** Milliseconds on the same clock as the chunk times. */
  now(): number {
    return monoNow();
  }
}
