export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

/**
 * Delay before retrying after `failures` consecutive failures (1-based): exponential from
 * `baseMs`, capped at `maxMs`. A server's Retry-After wins when it asks for longer, and is
 * itself capped so a hostile header cannot park the agent for a day.
 */
export function backoffDelay(
  failures: number,
  settings: BackoffSettings,
  retryAfterMs?: number,
): number {
  const exp = settings.baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30));
  const delay = Math.min(settings.maxMs, exp);
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0) {
    return Math.min(Math.max(delay, retryAfterMs), Math.max(settings.maxMs, 10 * 60_000));
  }
  return delay;
}
