import { DEFAULT_MAX_WAKES_PER_HOUR, DEFAULT_MIN_WAKE_INTERVAL_MS } from '../config/schema.js';
import type { Timers } from '../scheduler/scheduler.js';

const HOUR_MS = 60 * 60_000;

/** `watch.minWakeIntervalMs` and `watch.maxWakesPerHour` when the settings do not say. */
export const DEFAULT_CHANGE_WAKES = {
  minIntervalMs: DEFAULT_MIN_WAKE_INTERVAL_MS,
  maxPerHour: DEFAULT_MAX_WAKES_PER_HOUR,
} as const;

export interface ChangeWakeSettings {
  /** The shortest time between two change wake-ups (or a look that carried changes). */
  minIntervalMs: number;
  /** Change wake-ups per rolling hour at most (0: changes never wake the agent). */
  maxPerHour: number;
}

/** What a change in the workspace may do now. */
export type ChangeWakeDecision = 'now' | 'later' | 'capped';

/**
 * The floor and the hourly cap on wake-ups for workspace changes, so a busy file (a log
 * appended every 300 ms) wakes the agent a few times, not once per write. A change inside the
 * floor is not dropped: one timer wakes the agent when the floor ends, with every change since
 * in its note. Past the hourly cap changes only wait for the next timed look. Any look whose
 * note carried changes counts for the floor too, so a timed look and a change wake-up never
 * come back to back for the same changes.
 */
export class ChangeWakes {
  /** Times of the wake-ups granted within the last hour, oldest first. */
  private granted: number[] = [];
  /** The last time changes reached the model (a wake-up granted, or any look's note). */
  private lastSeen = -Infinity;
  private deferred: unknown;
  private cappedHour: number | undefined;

  constructor(
    private readonly settings: () => ChangeWakeSettings,
    private readonly timers: Timers,
  ) {}

  /**
   * Changes are waiting. `wake` runs now when the floor and the cap allow it; inside the floor
   * `retry` is called once when the floor ends (it asks again); past the cap, nothing.
   */
  request(retry: () => void): ChangeWakeDecision {
    const now = this.timers.now();
    const { minIntervalMs, maxPerHour } = this.settings();
    this.granted = this.granted.filter((t) => now - t < HOUR_MS);
    if (this.granted.length >= maxPerHour) return 'capped';
    const at = this.lastSeen + minIntervalMs;
    if (now >= at) {
      this.granted.push(now);
      this.lastSeen = now;
      return 'now';
    }
    if (this.deferred === undefined) {
      this.deferred = this.timers.setTimeout(() => {
        this.deferred = undefined;
        retry();
      }, at - now);
    }
    return 'later';
  }

  /** A look's note carried the waiting changes: the floor counts from now. */
  seen(): void {
    this.lastSeen = this.timers.now();
  }

  /**
   * True once per clock hour in which the cap was hit: the caller tells the user then (and
   * not on each of the writes that keep coming).
   */
  firstCapInHour(): boolean {
    const hour = Math.floor(this.timers.now() / HOUR_MS);
    if (this.cappedHour === hour) return false;
    this.cappedHour = hour;
    return true;
  }

  /** The agent stops: no timer stays behind. */
  cancel(): void {
    if (this.deferred !== undefined) this.timers.clearTimeout(this.deferred);
    this.deferred = undefined;
  }
}
