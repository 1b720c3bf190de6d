/**
 * A program in a real tmux pane (120×40 unless told), on a tmux server of its own (`-L`
 * socket, no user config), driven through one control-mode client (`tmux -C attach`).
 *
 * Why control mode: tmux sends a control client every byte a pane writes as a `%output`
 * line at the moment it reads them from the pane's terminal, so an output time here is the
 * time tmux had the bytes, give or take the hop through the `tmux -C` client process (a
 * pipe). Polling `capture-pane` instead would add its own 5–10 ms interval; `pipe-pane` into
 * a fifo adds a shell and a `cat` to the path. Keys go the same way (`send-keys -H`), and
 * `capture-pane -p` through the same client costs no process spawn, so thousands of
 * captures fit in a streamed reply. Times are CLOCK_MONOTONIC milliseconds (`clock.ts`).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monoNow } from './clock.js';
import { OutputLog } from './outputLog.js';

export interface TmuxOptions {
  cols?: number;
  rows?: number;
  /** The environment of the tmux server, and so of every program started in the pane. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** What the pane runs first (default `cat`: the terminal floor needs nothing more). */
  first?: string[];
}

/** A command's answer: its output lines, and when it was written and answered. */
export interface Answer {
  lines: string[];
  sentAt: number;
  doneAt: number;
}

interface Pending {
  sentAt: number;
  resolve(a: Answer): void;
  reject(e: Error): void;
}

/** The tmux options every bench server gets: no status line, a 256-colour terminal. */
const CONFIG = [
  'set -g status off',
  'set -g default-terminal tmux-256color',
  'set -g escape-time 0',
  'set -g history-limit 100',
].join('\n');

let servers = 0;

/** A program's argument list as one tmux command-line word each. */
function quote(args: readonly string[]): string {
  return args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

/** The bytes of a `%output` line's data (tmux escapes bytes below 32 and `\` as `\ooo`). */
export function unescapeOutput(data: Buffer): Buffer {
  const out = Buffer.alloc(data.length);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0x5c && i + 3 < data.length) {
      out[n++] = parseInt(data.subarray(i + 1, i + 4).toString('latin1'), 8);
      i += 3;
    } else out[n++] = data[i]!;
  }
  return out.subarray(0, n);
}

export class TmuxPane extends OutputLog {
  /** CLOCK_MONOTONIC ms just before the pane's current program was started. */
  spawnedAt = 0;
  private readonly ctl: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private block: { pending: Pending | undefined; lines: string[] } | undefined;
  private rest = Buffer.alloc(0);
  private readonly decoder = new TextDecoder('utf-8');
  private readonly dir: string;

  private constructor(
    private readonly socket: string,
    env: NodeJS.ProcessEnv,
    dir: string,
  ) {
    super();
    this.dir = dir;
    this.ctl = spawn('tmux', ['-L', socket, '-C', 'attach', '-t', 'bench'], { env });
    this.ctl.stdout.on('data', (d: Buffer) => this.onData(monoNow(), d));
    this.ctl.on('close', () => {
      this.exitCode ??= -1;
      for (const p of this.queue.splice(0)) p.reject(new Error('tmux control client ended'));
      this.wake();
    });
  }

  /** Starts a tmux server of its own with `first` in its one pane, and attaches to it. */
  static async open(opts: TmuxOptions): Promise<TmuxPane> {
    const socket = `cogito-bench-${process.pid}-${++servers}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tmux-'));
    const conf = path.join(dir, 'tmux.conf');
    fs.writeFileSync(conf, `${CONFIG}\n`);
    const env = { ...opts.env };
    delete env.TMUX;
    const size = ['-x', String(opts.cols ?? 120), '-y', String(opts.rows ?? 40)];
    execFileSync(
      'tmux',
      [
        '-L',
        socket,
        '-f',
        conf,
        'new-session',
        '-d',
        '-s',
        'bench',
        ...size,
        '-c',
        opts.cwd,
      ].concat(opts.first ?? ['cat']),
      { env, stdio: 'ignore' },
    );
    const pane = new TmuxPane(socket, env, dir);
    const [geometry] = (await pane.command(`display -p '#{window_width}x#{window_height}'`)).lines;
    if (geometry !== `${opts.cols ?? 120}x${opts.rows ?? 40}`)
      throw new Error(`tmux window is ${geometry}, not the size asked for`);
    return pane;
  }

  /** Runs one tmux command through the control client; resolves with its output. */
  command(line: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ sentAt: monoNow(), resolve, reject });
      this.ctl.stdin.write(`${line}\n`);
    });
  }

  /** Replaces the pane's program with `cmd` (run in `cwd`); output from now on is its. */
  async run(cmd: readonly string[], cwd: string): Promise<void> {
    this.chunks.length = 0;
    this.spawnedAt = monoNow();
    await this.command(`respawn-pane -k -t bench -c ${quote([cwd])} ${quote(cmd)}`);
  }

  /** The process id of the pane's program. */
  async pid(): Promise<number> {
    return Number((await this.command(`display -p -t bench '#{pane_pid}'`)).lines[0]);
  }

  /** Types `text` (ASCII, control characters included); resolves with when it was sent. */
  async keys(text: string): Promise<number> {
    const hex = [...Buffer.from(text, 'latin1')].map((b) => {
      if (b > 0x7f) throw new Error('keys: ASCII only');
      return b.toString(16).padStart(2, '0');
    });
    return (await this.command(`send-keys -t bench -H ${hex.join(' ')}`)).sentAt;
  }

  /** The screen as tmux holds it now (`capture-pane -p`: one string per row). */
  async capture(): Promise<Answer> {
    return this.command('capture-pane -p -t bench');
  }

  /** Ends the tmux server (and with it the program) and removes its files. */
  async close(): Promise<void> {
    if (this.exitCode === undefined) {
      const ended = new Promise((r) => this.ctl.once('close', r));
      this.ctl.stdin.write('kill-server\n');
      await Promise.race([ended, new Promise((r) => setTimeout(r, 3000))]);
    }
    this.ctl.kill('SIGKILL');
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone: the usual case.
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private onData(t: number, data: Buffer): void {
    const all = Buffer.concat([this.rest, data]);
    let start = 0;
    for (let nl = all.indexOf(0x0a); nl !== -1; nl = all.indexOf(0x0a, start)) {
      this.onLine(t, all.subarray(start, nl));
      start = nl + 1;
    }
    this.rest = Buffer.from(all.subarray(start));
  }

  private onLine(t: number, line: Buffer): void {
    const head = line.subarray(0, Math.min(line.length, 16)).toString('latin1');
    if (this.block) {
      if (/^%(end|error) /.test(head)) {
        const { pending, lines } = this.block;
        this.block = undefined;
        if (!pending) return;
        if (head.startsWith('%error')) pending.reject(new Error(`tmux: ${lines.join(' ')}`));
        else pending.resolve({ lines, sentAt: pending.sentAt, doneAt: t });
      } else this.block.lines.push(line.toString('utf8'));
    } else if (head.startsWith('%begin ')) {
      // Flags 1: a command this client sent (answered in order); 0: tmux's own.
      const ours = line.toString('latin1').trim().endsWith(' 1');
      this.block = { pending: ours ? this.queue.shift() : undefined, lines: [] };
    } else if (head.startsWith('%output ')) {
      const space = line.indexOf(0x20, 8);
      const bytes = unescapeOutput(line.subarray(space + 1));
      this.record(t, this.decoder.decode(bytes, { stream: true }));
    } else if (head.startsWith('%exit')) {
      this.exitCode ??= -1;
      this.wake();
    }
  }
}
