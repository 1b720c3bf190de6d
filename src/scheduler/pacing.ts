import { cacheAwareRest } from './cacheWindow.js';

/**
 * Pacing instead of a wall: each autonomous cycle that brings nothing new moves one step up
 * this table (capped by `pacing.maxIntervalMs`); a wake-up of kind user, change or schedule,
 * or a cycle that found something, drops back to `thinkIntervalMs` at once. Every interval
 * then passes the prompt-cache rule (`cacheAwareRest`): with the default 5-minute TTL the
 * table becomes 30 s, 4 min, 30 min, and active work looks again within 4 minutes.
 */
export const PACING_STEPS_MS: readonly number[] = [30_000, 5 * 60_000, 30 * 60_000];

export interface PacingSettings {
  thinkIntervalMs: number;
  /** The longest rest between two looks; at least `thinkIntervalMs`. */
  maxIntervalMs: number;
  /** pacing.cacheTtlSeconds in ms: the provider's prompt-cache lifetime (0 or absent: none). */
  cacheTtlMs?: number;
}

/** The interval after `idleCycles` cycles in a row that found nothing new. */
export function pacedInterval(idleCycles: number, s: PacingSettings): number {
  const base = s.thinkIntervalMs;
  const steps = PACING_STEPS_MS.filter((ms) => ms > base);
  const step = idleCycles <= 0 ? base : (steps[Math.min(idleCycles, steps.length) - 1] ?? base);
  const rest = Math.max(base, Math.min(step, s.maxIntervalMs));
  return cacheAwareRest(rest, {
    ttlMs: s.cacheTtlMs ?? 0,
    active: idleCycles <= 0,
    maxMs: Math.max(base, s.maxIntervalMs),
  });
}

/**
 * The most timer wake-ups the table allows within `windowMs` from a fresh start (the first
 * look at 0, then one per interval as the steps grow): the bound the pacing tests check.
 */
export function maxLooksWithin(windowMs: number, s: PacingSettings): number {
  let t = 0;
  let looks = 0;
  for (let idle = 0; t <= windowMs; idle++) {
    looks += 1;
    t += pacedInterval(idle + 1, s);
  }
  return looks;
}

/** The pacing state of one agent. */
export class Pacing {
  private idle = 0;

  constructor(private readonly settings: () => PacingSettings) {}

  /** The delay before the next autonomous look. */
  interval(): number {
    return pacedInterval(this.idle, this.settings());
  }

  /** Cycles in a row that found nothing new (0: active). */
  get idleCycles(): number {
    return this.idle;
  }

  /** A cycle (or a skipped look) found nothing new: rest longer. */
  nothingNew(): void {
    this.idle += 1;
  }

  /** Something happened: back to the think interval. */
  reset(): void {
    this.idle = 0;
  }
}
