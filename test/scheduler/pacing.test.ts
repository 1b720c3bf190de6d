import { describe, expect, it } from 'vitest';
import { cacheAwareRest } from '../../src/scheduler/pacing.js';
import { pacedInterval } from '../../src/scheduler/pacing.js';

const S = 1000;
const MIN = 60 * S;
const TTL = 5 * MIN;

describe('pacing and the prompt-cache lifetime', () => {
  // [rest asked for, active, what the rule gives]; TTL 5 min: inside ≤ 4 min, worth missing ≥ 15 min.
  const table: [number, boolean, number][] = [
    [3 * S, false, 3 * S],
    [30 * S, false, 30 * S],
    [4 * MIN, false, 4 * MIN],
    [4 * MIN + 1, false, 4 * MIN], // just past "inside": down
    [5 * MIN, false, 4 * MIN], // the TTL itself lands past it: down
    [6 * MIN, false, 4 * MIN],
    [9 * MIN, false, 4 * MIN], // nearer to 4 than to 15
    [10 * MIN, false, 15 * MIN], // nearer to 15: up
    [14 * MIN, false, 15 * MIN],
    [15 * MIN, false, 15 * MIN],
    [30 * MIN, false, 30 * MIN],
    [10 * MIN, true, 4 * MIN], // active work looks again inside the TTL
    [30 * MIN, true, 4 * MIN],
    [2 * S, true, 2 * S],
  ];
  it.each(table)('a rest of %i ms (active %s) becomes %i ms', (rest, active, want) => {
    expect(cacheAwareRest(rest, { ttlMs: TTL, active, maxMs: 30 * MIN })).toBe(want);
  });

  it('no rest the rule gives lands between 0.8 and 3 times the TTL, for any rest and TTL', () => {
    for (const ttl of [30 * S, 5 * MIN, 10 * MIN, 60 * MIN]) {
      for (let rest = 1 * S; rest <= 4 * 60 * MIN; rest += 7 * S) {
        for (const active of [true, false]) {
          const got = cacheAwareRest(rest, { ttlMs: ttl, active, maxMs: 24 * 60 * MIN });
          expect(got <= 0.8 * ttl || got >= 3 * ttl, `ttl ${ttl} rest ${rest} → ${got}`).toBe(true);
          if (active) expect(got).toBeLessThanOrEqual(0.8 * ttl);
        }
      }
    }
  });

  it('going up never passes maxIntervalMs: then it stays inside', () => {
    expect(cacheAwareRest(12 * MIN, { ttlMs: TTL, active: false, maxMs: 12 * MIN })).toBe(4 * MIN);
  });

  it('TTL 0 (no cache known) keeps every rest as the table says', () => {
    expect(cacheAwareRest(5 * MIN, { ttlMs: 0, active: false, maxMs: 30 * MIN })).toBe(5 * MIN);
    expect(cacheAwareRest(10 * MIN, { ttlMs: 0, active: true, maxMs: 30 * MIN })).toBe(10 * MIN);
  });

  it('the default pacing table with the default 5-minute TTL: 3 s, 30 s, 4 min, 30 min', () => {
    const s = { thinkIntervalMs: 3 * S, maxIntervalMs: 30 * MIN, cacheTtlMs: TTL };
    expect([0, 1, 2, 3, 4].map((idle) => pacedInterval(idle, s))).toEqual([
      3 * S,
      30 * S,
      4 * MIN,
      30 * MIN,
      30 * MIN,
    ]);
  });

  it('a think interval past the TTL: active work looks again within it, rests keep the rule', () => {
    const s = { thinkIntervalMs: 8 * MIN, maxIntervalMs: 30 * MIN, cacheTtlMs: TTL };
    expect(pacedInterval(0, s)).toBe(4 * MIN);
    expect(pacedInterval(1, s)).toBe(30 * MIN);
  });

  it('a 20-minute maxIntervalMs with the 5-minute TTL rests 20 minutes (past 3 × TTL)', () => {
    const s = { thinkIntervalMs: 3 * S, maxIntervalMs: 20 * MIN, cacheTtlMs: TTL };
    expect(pacedInterval(3, s)).toBe(20 * MIN);
  });
});
