/**
 * `cogito status` says what the status bar says (issue 33.6): the bar's label, local times,
 * rounded counts, in the user's language; an agent of an older version (no bar facts) still
 * gets words, never a raw state.
 */
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/api/activity.js';
import { localTime } from '../../src/agent/activityText.js';
import type { BarFacts } from '../../src/agent/stateLabel.js';
import { describeRow } from '../../src/daemon/statusText.js';
import type { StatusRow } from '../../src/daemon/statusCommand.js';

const NOW = Date.parse('2026-12-05T10:00:00Z');
const SINCE = NOW - 5 * 60_000;
const bar: BarFacts = {
  machine: 'THINKING',
  streaming: false,
  toolsRunning: 0,
  nextTurnAt: undefined,
  pauseReason: undefined,
  activity: { state: 'resting', since: SINCE, nextLookAt: NOW + 4 * 60_000 },
  cycle: 3,
  maxCycles: 50,
  sessionTokens: 1234,
};
const row = (over: Partial<StatusRow & { running: true }> = {}): StatusRow => ({
  running: true,
  workspace: '/w',
  pid: 42,
  state: 'THINKING',
  since: new Date(SINCE).toISOString(),
  lastActivity: new Date(SINCE).toISOString(),
  tokensToday: 15_678,
  started: new Date(NOW - 3_600_000).toISOString(),
  sessionId: 's',
  bar,
  activity: bar.activity!,
  ...over,
});

describe("cogito status's words", () => {
  it('a resting agent reads as the bar shows it, with local times and rounded counts', () => {
    const text = describeRow(row(), 'en', 'cogito', NOW);
    expect(text).toContain(`● Resting · next look in 4m · since ${localTime(SINCE, NOW)}`);
    expect(text).toContain(`started ${localTime(NOW - 3_600_000, NOW)}`);
    expect(text).toContain('Cycle 3/50 · 1.2k tokens this session · 15.7k tokens in the last 24 h');
    expect(text).not.toMatch(/THINKING|\d{4}-\d\d-\d\dT/);
  });

  it('speaks Chinese when the user does', () => {
    const text = describeRow(row(), 'zh', 'cogito', NOW);
    expect(text).toContain('休息');
    expect(text).toContain('最近 24 小时 15.7k token');
  });

  it('paused with its reason; a question names its own time', () => {
    const paused = describeRow(
      row({
        state: 'PAUSED',
        bar: {
          ...bar,
          machine: 'PAUSED',
          pauseReason: 'daily budget reached',
          activity: undefined,
        },
        activity: { state: 'paused', since: SINCE, reason: 'daily budget reached' },
      }),
      'en',
      'cogito',
      NOW,
    );
    expect(paused).toContain('● Paused · daily budget reached · since');
    const waiting: Activity = {
      state: 'waiting',
      since: SINCE,
      question: { text: 'Sort?', at: SINCE },
      watchFrom: NOW - 1000,
    };
    const asked = describeRow(
      row({
        state: 'AWAITING_INPUT',
        bar: { ...bar, machine: 'AWAITING_INPUT', activity: waiting },
        activity: waiting,
      }),
      'en',
      'cogito',
      NOW,
    );
    expect(asked).toContain(
      `● Your turn · waiting for your answer since ${localTime(SINCE, NOW)} · watching for changes`,
    );
  });

  it('an older agent without bar facts still gets the words', () => {
    const { bar: _bar, ...old } = row({ state: 'AWAITING_INPUT' }) as StatusRow & {
      running: true;
    };
    const text = describeRow({ ...old, activity: undefined } as StatusRow, 'en', 'cogito', NOW);
    expect(text).toContain('● Your turn · since');
    expect(text).not.toContain('Cycle');
  });

  it('a silent agent is named as kept, with the stop command as invoked', () => {
    const text = describeRow(
      { running: false, workspace: '/w', pid: 7, state: 'gone', started: '', kept: true },
      'en',
      'npm start --',
      NOW,
    );
    expect(text).toContain('pid 7: not answering');
    expect(text).toContain('npm start -- stop --workspace "/w"');
  });
});
