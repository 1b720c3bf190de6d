/**
 * The provider's prompt cache, as pacing sees it. A request that comes within the cache's
 * lifetime (TTL) of the previous one pays the cached price for the shared prefix (a tenth to
 * a half of the full price, by provider); one that comes later pays full price for all of it.
 * So a rest should either end well inside the TTL, or be long enough that the looks it saves
 * outweigh the one full-price request. A rest that ends just past the TTL is the worst of
 * both: it pays the miss and saves almost nothing.
 *
 * The rule, for a TTL `T` (0: no cache known, every rest is kept as it is):
 *   - `inside` = 0.8 T. The 20 % margin covers the turn's own time (the rest counts from the
 *     end of a turn, the cache from its request) and clock differences.
 *   - `worthMissing` = 3 T. Staying warm costs a look every 0.8 T; at the typical cached price
 *     (a quarter of full or less) about four such looks cost one full-price request, so from
 *     roughly 3 T on, one miss is cheaper than keeping the cache alive.
 *   - Work is active (the last cycle found something): the rest is at most `inside`.
 *   - A rest up to `inside`, or from `worthMissing` on, is kept.
 *   - A rest in between (the dead zone) goes to the nearer edge: down to `inside`, or up to
 *     `worthMissing`, but never above `max` (then `inside`).
 */
const CACHE_INSIDE = 0.8;
const CACHE_WORTH_MISSING = 3;

export function cacheAwareRest(
  restMs: number,
  opts: { ttlMs: number; active: boolean; maxMs: number },
): number {
  const { ttlMs, active, maxMs } = opts;
  if (ttlMs <= 0) return restMs;
  const inside = Math.floor(ttlMs * CACHE_INSIDE);
  const worthMissing = ttlMs * CACHE_WORTH_MISSING;
  if (restMs <= inside) return restMs;
  if (active) return inside;
  if (restMs >= worthMissing) return restMs;
  const up = restMs - inside > worthMissing - restMs;
  return up && worthMissing <= maxMs ? worthMissing : inside;
}

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
