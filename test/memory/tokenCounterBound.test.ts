/**
 * The token counter caches each stored message's count by id. A day-long session counts
 * thousands of messages that compression has long replaced; the cache keeps two generations
 * of at most its limit, and what every request counts (the live history) stays in it.
 */
import { describe, expect, it, vi } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { TOKEN_CACHE_LIMIT, TokenCounter } from '../../src/memory/tokenCounter.js';

const SYSTEM = 'You are Cogito.';

describe('TokenCounter message cache', () => {
  it('holds at most twice its limit after 5,000 distinct messages', () => {
    const counter = new TokenCounter(100);
    for (let i = 0; i < 5_000; i++) counter.countMessage(makeMessage('assistant', `reply ${i}`));
    expect(counter.cachedMessages).toBeLessThanOrEqual(200);
    expect(counter.cachedMessages).toBeGreaterThan(0);
  });

  it('the default limit bounds it too', () => {
    const counter = new TokenCounter();
    const n = TOKEN_CACHE_LIMIT * 3;
    for (let i = 0; i < n; i++) counter.countMessage(makeMessage('user', `note ${i}`));
    expect(counter.cachedMessages).toBeLessThanOrEqual(TOKEN_CACHE_LIMIT * 2);
  });

  it('keeps the live history cached across turnovers: it is counted once', () => {
    const counter = new TokenCounter(10);
    const live = Array.from({ length: 8 }, (_, i) => makeMessage('user', `live ${i}`));
    const first = counter.countContext(SYSTEM, live);
    const count = vi.spyOn(counter, 'count');
    // Turns go by: new messages are counted (and turn the cache over), the live ones asked again.
    for (let i = 0; i < 60; i++) {
      counter.countMessage(makeMessage('assistant', `passing ${i}`));
      expect(counter.countContext(SYSTEM, live)).toBe(first);
    }
    const liveCounts = count.mock.calls.filter(([text]) => text.startsWith('live ')).length;
    expect(liveCounts).toBe(0);
    expect(count).toHaveBeenCalledTimes(60);
  });
});
