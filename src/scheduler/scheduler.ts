import type { TurnTrigger } from '../api/trace.js';
import { backoffDelay, type BackoffSettings } from '../core/backoff.js';

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
  /** When the next reminder is due: the one timer also covers it, whatever the state. */
  nextDueAt?(): number | undefined;
  /**
   * Whether a reminder may start a turn now (the agent may leave AWAITING_INPUT for it).
   * Asked only when a reminder is due; without it reminders wait for THINKING.
   */
  mayWakeForSchedule?(): boolean;
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
  /** A change or reminder wake-up that arrived while a turn ran: it goes next. */
  private pendingWake: TurnTrigger | undefined;
  /** When the next autonomous look is due by the think interval (not by a reminder). */
  private thinkAt: number | undefined;
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
    this.pendingWake = undefined;
    this.thinkAt = undefined;
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

  /**
   * Autonomy resumed: think soon (after `delayMs`). A look asked for now (an empty Enter,
   * resume) while a turn is still ending (its reply already gave the floor back, its save
   * not yet done) goes right after that turn instead of being lost to the think interval.
   */
  wake(delayMs = 0, trigger: TurnTrigger = 'timer'): void {
    if (this.stopped) return;
    const now = delayMs === 0 && trigger !== 'timer';
    if (this.running) {
      if (now) this.pendingWake ??= trigger;
      return;
    }
    if (now) {
      this.clearTimer();
      this.launch(trigger);
      return;
    }
    this.schedule(delayMs);
  }

  /**
   * Something happened that deserves a look now (the workspace changed, a reminder): start
   * a turn with that reason at once, or right after the turn in flight.
   */
  wakeFor(trigger: TurnTrigger): void {
    if (this.stopped) return;
    if (this.running) {
      this.pendingWake ??= trigger;
      return;
    }
    if (!this.deps.mayThink()) return;
    this.clearTimer();
    this.launch(trigger);
  }

  /** Re-arms the timer (a reminder was added): the think time stays where it was. */
  refresh(): void {
    if (this.stopped || this.running) return;
    const now = this.timers.now();
    this.arm(this.thinkAt !== undefined ? Math.max(0, this.thinkAt - now) : undefined);
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
    const wake = this.pendingWake;
    this.pendingWake = undefined;
    if (this.stopped) return;
    if (wake !== undefined && !report.failed && this.deps.mayThink()) {
      this.launch(wake);
      return;
    }
    this.schedule(delay);
  }

  private schedule(delayMs: number): void {
    this.arm(this.deps.mayThink() ? delayMs : undefined);
  }

  /**
   * The one timer: at the think time (`thinkInMs`, undefined when not thinking) or the next
   * reminder, whichever comes first.
   */
  private arm(thinkInMs: number | undefined): void {
    this.clearTimer();
    const now = this.timers.now();
    this.thinkAt = thinkInMs === undefined ? undefined : now + thinkInMs;
    const due = this.deps.nextDueAt?.();
    const at = Math.min(this.thinkAt ?? Infinity, due ?? Infinity);
    if (at === Infinity) {
      this.deps.onScheduled?.(undefined);
      return;
    }
    this.deps.onScheduled?.(at);
    this.timer = this.timers.setTimeout(() => this.fire(), Math.max(0, at - now));
  }

  private fire(): void {
    this.timer = undefined;
    this.thinkAt = undefined;
    const due = this.deps.nextDueAt?.();
    const reminder = due !== undefined && due <= this.timers.now();
    // The state may have changed while we waited (interrupt, pause): check again.
    const may = reminder
      ? this.deps.mayThink() || (this.deps.mayWakeForSchedule?.() ?? false)
      : this.deps.mayThink();
    if (this.stopped || this.running || !may) {
      this.deps.onScheduled?.(undefined);
      return;
    }
    this.launch(reminder ? 'schedule' : 'timer');
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
