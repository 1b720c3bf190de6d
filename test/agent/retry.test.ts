/** Which failures are tried again inside the turn, and after how long. */
import { describe, expect, it } from 'vitest';
import { retryDelay, retryNotice, waitOrAbort } from '../../src/agent/retry.js';
import { realTimers } from '../../src/scheduler/scheduler.js';

const settings = { maxConsecutiveFailures: 3, backoff: { baseMs: 100, maxMs: 1000 } };

describe('retryDelay', () => {
  it.each(['rate_limit', 'server', 'network', 'timeout', 'bad_response', 'unknown'])(
    'a %s error is tried again, doubling, until the tries are used up',
    (kind) => {
      const error = { kind, message: 'x' };
      expect(retryDelay(error, 1, settings)).toBe(100);
      expect(retryDelay(error, 2, settings)).toBe(200);
      expect(retryDelay(error, 3, settings)).toBeUndefined();
    },
  );

  it.each(['auth', 'not_found', 'bad_request', 'unavailable', 'history_write', 'internal'])(
    'a %s error is not tried again',
    (kind) => expect(retryDelay({ kind, message: 'x' }, 1, settings)).toBeUndefined(),
  );

  it("honours the server's Retry-After when it asks for longer, capped at 10 minutes", () => {
    const limited = (ms: number) => ({ kind: 'rate_limit', message: 'x', retryAfterMs: ms });
    expect(retryDelay(limited(5000), 1, settings)).toBe(5000);
    expect(retryDelay(limited(10), 1, settings)).toBe(100);
    expect(retryDelay(limited(86_400_000), 1, settings)).toBe(600_000);
  });

  it('0 tries allowed means no limit', () => {
    const unlimited = { ...settings, maxConsecutiveFailures: 0 };
    expect(retryDelay({ kind: 'server', message: 'x' }, 50, unlimited)).toBe(1000);
  });

  it('the notice says the error, the wait and the try, in the language', () => {
    const s = { ...settings, lang: 'en' as const };
    expect(retryNotice(s, 'HTTP 500', 2, 20)).toBe('HTTP 500; retrying in 20 ms (try 2 of 3)');
    expect(retryNotice(s, 'HTTP 500', 2, 4000)).toBe('HTTP 500; retrying in 4s (try 2 of 3)');
    expect(retryNotice({ ...s, lang: 'zh' }, 'HTTP 500', 2, 4000)).toContain('4s 后重试');
  });
});

describe('waitOrAbort', () => {
  it('an abort ends the wait at once', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waited = waitOrAbort(60_000, controller.signal, realTimers);
    controller.abort();
    expect(await waited).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('resolves true when the time is up', async () => {
    expect(await waitOrAbort(5, new AbortController().signal, realTimers)).toBe(true);
  });
});
