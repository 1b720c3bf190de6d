/**
 * The real program in a real pseudo-terminal, with every byte it writes timestamped.
 * A small python3 helper (`pty.py`) owns the terminal; times are CLOCK_MONOTONIC
 * milliseconds, the clock `monoNow()` reads here, so they compare with events in this process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monoNow } from './clock.js';

const HELPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pty.py');

/** One read from the terminal: when it arrived and what it held. */
export interface Chunk {
  t: number;
  data: string;
}

export interface PtyOptions {
  cols?: number;
  rows?: number;
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Removes colour and cursor escape sequences, leaving the text a person would read. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '');
}

export class PtyApp {
  /** CLOCK_MONOTONIC ms just before the fork. */
  spawnedAt = 0;
  pid = 0;
  readonly chunks: Chunk[] = [];
  exitCode: number | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Set<() => void>();
  private readonly sent = new Map<number, (t: number) => void>();
  private nextId = 1;
  private buffered = '';
  private readonly decoder = new TextDecoder('utf-8');
  private readonly started: Promise<void>;
  private readonly exited: Promise<number>;

  constructor(cmd: string[], opts: PtyOptions) {
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
          this.chunks.push({ t: msg.t!, data: this.decoder.decode(bytes, { stream: true }) });
        } else if (msg.sent !== undefined) {
          this.sent.get(msg.sent)?.(msg.t!);
          this.sent.delete(msg.sent);
        } else if (msg.exit !== undefined) {
          this.exitCode = msg.exit;
          onExit(msg.exit);
        }
      }
      for (const w of [...this.waiters]) w();
    });
    this.child.on('close', () => {
      if (this.exitCode === undefined) onExit((this.exitCode = -1));
      for (const w of [...this.waiters]) w();
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

  /** Everything written so far (with escape sequences). */
  text(from = 0): string {
    let s = '';
    for (let i = from; i < this.chunks.length; i++) s += this.chunks[i]!.data;
    return s;
  }

  /**
   * Resolves with the chunk at which `predicate`, given all output from chunk `from` on
   * (escape sequences stripped unless `raw`), first holds.
   */
  waitFor(
    predicate: (text: string) => boolean,
    what: string,
    opts: { from?: number; timeoutMs?: number; raw?: boolean } = {},
  ): Promise<{ index: number; t: number }> {
    const from = opts.from ?? 0;
    let acc = '';
    let scanned = from;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        while (scanned < this.chunks.length) {
          const c = this.chunks[scanned]!;
          acc += c.data;
          scanned += 1;
          if (predicate(opts.raw ? acc : stripAnsi(acc))) {
            resolve({ index: scanned - 1, t: c.t });
            return true;
          }
        }
        if (this.exitCode !== undefined) {
          reject(new Error(`${what}: the program exited (${this.exitCode}) first`));
          return true;
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const tail = stripAnsi(acc).slice(-1500);
        reject(
          new Error(
            `${what}: not seen after ${opts.timeoutMs ?? 20_000} ms. Last output:\n${tail}`,
          ),
        );
      }, opts.timeoutMs ?? 20_000);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          this.waiters.delete(waiter);
        }
      };
      this.waiters.add(waiter);
    });
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
