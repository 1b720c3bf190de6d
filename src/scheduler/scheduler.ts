import type { TurnTrigger } from '../pipeline/phases.js';
import { backoffDelay, type BackoffSettings } from './backoff.js';

/** What the scheduler needs to know about a finished turn. */
export interface TurnReport {
  failed: boolean;
  retryAfterMs?: number;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  now: () => Date.now(),
};

export interface SchedulerDeps {
  /** Runs one whole turn. Expected never to throw; a throw is counted as a failure. */
  runTurn(trigger: TurnTrigger): Promise<TurnReport>;
  /** Whether an autonomous turn may run now (the machine is THINKING). Checked when the timer fires. */
  mayThink(): boolean;
  intervalMs(): number;
  backoff(): BackoffSettings;
  timers?: Timers;
  /** Told when the next autonomous turn is due (undefined: none scheduled). */
  onScheduled?(at: number | undefined): void;
}

/**
 * Runs turns one at a time. There is at most one timer (cleared before set); the think
 * interval counts from the end of the previous turn, so turns never overlap or pile up; a
 * user turn requested while one runs waits for it and then starts at once.
 */
export class Scheduler {
  private timer: unknown;
  private running: Promise<void> | undefined;
  private pendingUserTurn = false;
  private stopped = true;
  private failures = 0;
  private readonly timers: Timers;

  constructor(private readonly deps: SchedulerDeps) {
    this.timers = deps.timers ?? realTimers;
  }

  /** Starts autonomous scheduling; the first think cycle comes after `delayMs`. */
  start(delayMs = 0): void {
    this.stopped = false;
    if (!this.running) this.schedule(delayMs);
  }

  /** Stops scheduling. A turn in flight is not awaited here: abort it through its signal. */
  stop(): void {
    this.stopped = true;
    this.pendingUserTurn = false;
    this.clearTimer();
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Runs a user turn now, or right after the turn in flight ends. */
  runUserTurn(): void {
    this.clearTimer();
    if (this.running) {
      this.pendingUserTurn = true;
      return;
    }
    this.launch('user');
  }

  /** Autonomy resumed: think soon (after `delayMs`) unless a turn is already going. */
  wake(delayMs = 0): void {
    if (this.stopped || this.running) return;
    this.schedule(delayMs);
  }

  /** Resolves when no turn is running (for print mode and tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private launch(trigger: TurnTrigger): void {
    this.deps.onScheduled?.(undefined);
    const run = (async () => {
      let report: TurnReport;
      try {
        report = await this.deps.runTurn(trigger);
      } catch {
        report = { failed: true };
      }
      this.running = undefined;
      this.afterTurn(report);
    })();
    this.running = run;
  }

  private afterTurn(report: TurnReport): void {
    let delay: number;
    if (report.failed) {
      this.failures += 1;
      delay = backoffDelay(this.failures, this.deps.backoff(), report.retryAfterMs);
    } else {
      this.failures = 0;
      delay = this.deps.intervalMs();
    }
    if (this.pendingUserTurn) {
      this.pendingUserTurn = false;
      this.launch('user');
      return;
    }
    if (!this.stopped && this.deps.mayThink()) this.schedule(delay);
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    const at = this.timers.now() + delayMs;
    this.deps.onScheduled?.(at);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      // The state may have changed while we waited (interrupt, pause): check again.
      if (this.stopped || this.running || !this.deps.mayThink()) {
        this.deps.onScheduled?.(undefined);
        return;
      }
      this.launch('timer');
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
