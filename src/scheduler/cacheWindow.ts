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
export const CACHE_INSIDE = 0.8;
export const CACHE_WORTH_MISSING = 3;

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
