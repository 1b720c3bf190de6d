/**
 * Commands `run` started in the background (`background: true`): each is its own process
 * group (bwrap's, whose process-id namespace holds everything the command started), read
 * by `run_output` (the output that came since the last read, capped like `run`'s) and
 * stopped by `run_stop`, by its own time limit, or all at once when the agent stops (quit,
 * a background agent's stop, a session switch). How many run at once is capped, so a model
 * in a loop cannot fill the machine with servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CappedOutput } from './output.js';
import { SandboxKiller } from './sandboxKill.js';

/** The limits of background commands (config.json's `run`). */
export interface BackgroundLimits {
  /** At most this many run at once; starting one more is refused. */
  maxBackground: number;
  /** Each is stopped after this long. */
  backgroundTimeoutMs: number;
  /** Output kept per read (characters), head and tail as `run` keeps them. */
  maxOutputChars: number;
}

/** What a read of a background command gives. */
export interface BackgroundRead {
  id: string;
  command: string;
  /** The output since the last read (terminal controls removed, capped). */
  output: string;
  state: 'running' | 'exited' | 'stopped' | 'timeout';
  exitCode?: number;
  signal?: string;
  /** Milliseconds since it started. */
  ageMs: number;
}

/** Ended commands kept for a last read. */
const KEEP_ENDED = 16;

interface Job {
  id: string;
  command: string;
  child: ChildProcess;
  killer: SandboxKiller;
  startedAt: number;
  /** Output since the last read. */
  unread: CappedOutput;
  state: BackgroundRead['state'];
  exitCode?: number;
  signal?: string;
  timer: NodeJS.Timeout;
  ended: Promise<void>;
}

/** The commands started in the background, and their stop. */
export class BackgroundCommands {
  private readonly jobs = new Map<string, Job>();
  private readonly listeners = new Set<() => void>();
  private next = 1;
  private closed = false;

  constructor(private readonly limits: () => BackgroundLimits) {}

  /** How many are running now (the status bar shows it). */
  count(): number {
    let n = 0;
    for (const j of this.jobs.values()) if (j.state === 'running') n++;
    return n;
  }

  /** Hears every change of {@link count}; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts `argv` in `cwd`; the id to read and stop it by, or why it was refused. */
  start(
    argv: readonly string[],
    cwd: string,
    command: string,
    /** Called once it has ended (a pids cgroup to remove); `ended` waits for it. */
    onEnd: () => Promise<void> = () => Promise.resolve(),
    /** bwrap was given `--info-fd 3` (see `sandboxKill.ts`). */
    sandboxed = false,
  ): { id: string } | { refused: string } {
    const limits = this.limits();
    if (this.closed) return { refused: 'the agent is stopping; no command can start now' };
    if (this.count() >= limits.maxBackground) {
      const running = [...this.jobs.values()].filter((j) => j.state === 'running');
      return {
        refused: `${running.length} background commands are running already (run.maxBackground is ${limits.maxBackground}): stop one with run_stop(id) first (${running.map((j) => `${j.id}: ${j.command}`).join('; ')})`,
      };
    }
    this.forgetOld();
    const id = `bg${this.next++}`;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe', sandboxed ? 'pipe' : 'ignore'],
      // Its own process group, so a stop reaches everything in it at once.
      detached: true,
      windowsHide: true,
    });
    let resolveEnded!: () => void;
    const ended = new Promise<void>((r) => (resolveEnded = r));
    const job: Job = {
      id,
      command,
      child,
      killer: new SandboxKiller(child, sandboxed),
      startedAt: Date.now(),
      unread: new CappedOutput(limits.maxOutputChars),
      state: 'running',
      ended,
      timer: setTimeout(() => this.kill(job, 'timeout'), limits.backgroundTimeoutMs),
    };
    job.timer.unref();
    // Into the current unread buffer: a read swaps in a fresh one.
    const onData = (d: Buffer): void => job.unread.push(d.toString('utf8'));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(job.timer);
      if (job.state === 'running') job.state = 'exited';
      if (code !== null) job.exitCode = code;
      if (signal !== null) job.signal = signal;
      void onEnd().finally(resolveEnded);
      this.changed();
    };
    child.on('error', (err) => {
      job.unread.push(`[could not start: ${err.message}]\n`);
      finish(127, null);
    });
    // 'exit', not 'close': an unsandboxed daemon holding the pipes open must not keep it "running".
    child.on('exit', finish);
    this.jobs.set(id, job);
    this.changed();
    return { id };
  }

  /** The output since the last read and the state, or undefined for an unknown id. */
  read(id: string): BackgroundRead | undefined {
    const job = this.jobs.get(id);
    if (job === undefined) return undefined;
    const output = job.unread.text();
    job.unread = new CappedOutput(this.limits().maxOutputChars);
    return {
      id,
      command: job.command,
      output,
      state: job.state,
      ...(job.exitCode !== undefined ? { exitCode: job.exitCode } : {}),
      ...(job.signal !== undefined ? { signal: job.signal } : {}),
      ageMs: Date.now() - job.startedAt,
    };
  }

  /** The ids known, with their commands and states, for an error naming the right one. */
  list(): string {
    const all = [...this.jobs.values()].map((j) => `${j.id} (${j.state}): ${j.command}`);
    return all.length === 0 ? 'none' : all.join('; ');
  }

  /** Stops one (its whole group) and waits until it has ended; false for an unknown id. */
  async stop(id: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (job === undefined) return false;
    this.kill(job, 'stopped');
    await job.ended;
    return true;
  }

  /**
   * Stops every one and waits until all have ended (bounded: a group that will not die
   * after SIGKILL is a kernel matter, and quitting must not hang on it). New starts are
   * refused from now on when `final` (the app is closing).
   */
  async stopAll(final = false): Promise<void> {
    if (final) this.closed = true;
    const running = [...this.jobs.values()].filter((j) => j.state === 'running');
    for (const j of running) this.kill(j, 'stopped');
    await Promise.race([
      Promise.all(running.map((j) => j.ended)),
      new Promise((r) => setTimeout(r, 5_000).unref()),
    ]);
    if (final) this.jobs.clear();
  }

  /** Ended commands are kept to be read; past {@link KEEP_ENDED} the oldest are dropped. */
  private forgetOld(): void {
    const ended = [...this.jobs.values()].filter((j) => j.state !== 'running');
    for (const j of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) this.jobs.delete(j.id);
  }

  private kill(job: Job, why: 'stopped' | 'timeout'): void {
    if (job.state !== 'running') return;
    job.state = why;
    clearTimeout(job.timer);
    // The whole group, and the namespace's first process: its end takes what left the group
    // (setsid, double fork).
    job.killer.kill();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
