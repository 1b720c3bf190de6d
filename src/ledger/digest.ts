import type { CycleRecord } from '../api/ledger.js';
import type { Activity } from '../api/activity.js';

/** "While you were away": what the ledger says happened since the user's last key. */
export interface AwayDigest {
  awayMs: number;
  cycles: number;
  /** Away time not spent in a turn. */
  restingMs: number;
  tokensIn: number;
  tokensCached: number;
  tokensOut: number;
  /** Distinct files changed, in the order first changed. */
  files: string[];
  /** The replies it wrote, newest first. */
  replies: string[];
  /** What it does now (working, resting, waiting for the user's answer), as the agent said. */
  now?: Activity;
}

/** The user is "away" after this long without a key. */
export const AWAY_AFTER_MS = 10 * 60_000;

/**
 * Builds the digest from the ledger alone, with no model call; `activity` (the agent's last
 * `activity` event) says what it does now and repeats the question still open.
 */
export function buildDigest(
  records: readonly CycleRecord[],
  since: number,
  now: number,
  activity?: Activity,
): AwayDigest {
  const mine = records.filter((r) => r.at >= since && r.at <= now);
  const files: string[] = [];
  for (const r of mine) for (const f of r.files) if (!files.includes(f)) files.push(f);
  const busy = mine.reduce((n, r) => n + r.durationMs, 0);
  return {
    awayMs: now - since,
    cycles: mine.length,
    restingMs: Math.max(0, now - since - busy),
    tokensIn: mine.reduce((n, r) => n + r.tokensIn, 0),
    tokensCached: mine.reduce((n, r) => n + r.tokensCached, 0),
    tokensOut: mine.reduce((n, r) => n + r.tokensOut, 0),
    files,
    replies: mine
      .map((r) => r.reply ?? '')
      .filter((t) => t !== '')
      .reverse(),
    ...(activity ? { now: activity } : {}),
  };
}
