/**
 * The crash test, short: a busy background agent (slow streamed replies, a note written and
 * a reminder set each turn, `cogito send` messages arriving) killed with SIGKILL five times
 * at random moments. Every acknowledged message ends in the history exactly once, and every
 * state file reads as each kill left it. bench/crashKill.ts runs the same with 50 kills.
 * Runs the built program (bin/cogito.js): `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { runCrashKill } from '../../bench/lib/crashKillRun.js';

describe('kill -9 of a busy background agent', () => {
  it('five kills: nothing acknowledged is lost or doubled, every state file reads', async () => {
    const f = await runCrashKill({ kills: 5, seed: 7 });
    expect(f.acknowledged, f.problems.join('\n')).toBeGreaterThan(0);
    expect(
      { lost: f.lost, duplicated: f.duplicated, unreadableFiles: f.unreadableFiles },
      f.problems.join('\n'),
    ).toEqual({ lost: 0, duplicated: 0, unreadableFiles: 0 });
  }, 600_000);
});
