/**
 * Retrying a request inside the turn it belongs to. A transient failure (5xx, 429, a stream
 * dropped, stalled or malformed, a server not reachable) is sent again, the same request, after
 * a back-off: the user's turn stays the user's turn, worded as before. Errors that retrying
 * cannot fix end the step at once.
 */
import { backoffDelay, type BackoffSettings } from '../core/backoff.js';
import { t, type Lang } from '../i18n/messages.js';
import { formatSeconds } from '../providers/errors.js';
import type { TurnError } from '../providers/types.js';
import type { Timers } from '../scheduler/scheduler.js';

/** Errors that retrying cannot fix: the user has to change something first. */
export const PERMANENT_ERRORS: ReadonlySet<string> = new Set([
  'auth',
  'not_found',
  'unavailable',
  'bad_request',
]);

/** A provider's failure that another try may cure (not one of the agent's own). */
const TRANSIENT_ERRORS: ReadonlySet<string> = new Set([
  'rate_limit',
  'server',
  'network',
  'timeout',
  'bad_response',
  'unknown',
]);

export interface RetrySettings {
  readonly maxConsecutiveFailures: number;
  readonly backoff: Readonly<BackoffSettings>;
}

/**
 * How long to wait before try `failed + 1` after `failed` failed tries of one request, or
 * undefined when it is not retried: a permanent error, or `maxConsecutiveFailures` tries
 * made (0: no limit). Each turn gets its tries: a message sent after a pause is tried again
 * as many times. A server's Retry-After is honoured, capped (see `backoffDelay`).
 */
export function retryDelay(error: TurnError, failed: number, s: RetrySettings): number | undefined {
  if (!TRANSIENT_ERRORS.has(error.kind)) return undefined;
  const max = s.maxConsecutiveFailures;
  if (max > 0 && failed >= max) return undefined;
  const retryAfterMs = 'retryAfterMs' in error ? error.retryAfterMs : undefined;
  return backoffDelay(failed, s.backoff, retryAfterMs);
}

/**
 * Resolves true after `ms`, or false at once when `signal` aborts (Esc during a back-off
 * stops the wait, not only the next request).
 */
export function waitOrAbort(ms: number, signal: AbortSignal, timers: Timers): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = (): void => {
      timers.clearTimeout(handle);
      resolve(false);
    };
    const handle = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What the user is told of a retry: the error, when the next try goes, which try it is. */
export function retryNotice(
  s: RetrySettings & { readonly lang: Lang },
  error: string,
  attempt: number,
  delayMs: number,
): string {
  const max = s.maxConsecutiveFailures;
  // A short test back-off reads "20 ms", not "0.0s".
  const delay = delayMs < 1000 ? `${Math.round(delayMs)} ms` : formatSeconds(delayMs);
  const vars = { error, attempt, max, delay };
  return t(s.lang, max > 0 ? 'retry.notice' : 'retry.noticeNoLimit', vars);
}
