import { describe, expect, it } from 'vitest';
import { stateLabel, type LabelFacts } from '../../src/agent/stateLabel.js';
import { localTime } from '../../src/agent/activityText.js';

const base: LabelFacts = {
  machine: 'THINKING',
  streaming: false,
  toolsRunning: 0,
  nextTurnAt: undefined,
  pauseReason: undefined,
};
const NOW = 1_000_000;

describe('stateLabel', () => {
  it.each<[string, Partial<LabelFacts>, string]>([
    ['a request in flight', { streaming: true, nextTurnAt: NOW + 5000 }, 'Thinking'],
    ['a tool in flight', { toolsRunning: 1 }, 'Thinking'],
    ['resting, minutes', { nextTurnAt: NOW + 4 * 60_000 }, 'Resting · next look in 4m'],
    ['resting, seconds', { nextTurnAt: NOW + 12_300 }, 'Resting · next look in 13s'],
    ['resting, hours', { nextTurnAt: NOW + 90 * 60_000 }, 'Resting · next look in 1h30m'],
    ['between phases', {}, 'Thinking'],
    ['your turn', { machine: 'AWAITING_INPUT', nextTurnAt: NOW + 1000 }, 'Your turn'],
    ['paused by the user', { machine: 'PAUSED' }, 'Paused'],
    [
      'paused with a reason',
      { machine: 'PAUSED', pauseReason: 'daily budget' },
      'Paused · daily budget',
    ],
    ['approval', { machine: 'AWAITING_APPROVAL' }, 'Needs approval'],
    [
      "a failed request's back-off, after a resting look: the turn is still at work",
      {
        retryAt: NOW + 2500,
        nextTurnAt: NOW + 60_000,
        activity: { state: 'resting', since: NOW - 5000, nextLookAt: NOW + 60_000 },
      },
      'Retrying · next try in 3s',
    ],
    ['the retry streams: thinking again', { retryAt: NOW + 2500, streaming: true }, 'Thinking'],
    [
      'resting free: wakes on a change',
      { nextTurnAt: NOW + 2000, activity: { state: 'resting', since: NOW } },
      'Resting · wakes on a change',
    ],
    [
      "resting until the agent's next paid look",
      {
        nextTurnAt: NOW + 2000,
        activity: { state: 'resting', since: NOW, nextLookAt: NOW + 9 * 60_000 },
      },
      'Resting · next look in 9m',
    ],
    [
      'your turn after a question',
      {
        machine: 'AWAITING_INPUT',
        activity: {
          state: 'waiting',
          since: NOW - 60_000,
          question: { text: 'Which one?', at: NOW - 60_000 },
        },
      },
      `Your turn · waiting for your answer since ${localTime(NOW - 60_000, NOW)}`,
    ],
  ])('%s', (_name, facts, want) => {
    expect(stateLabel({ ...base, ...facts }, NOW, 'en')).toBe(want);
  });

  it('cuts a long reason (the full text is on the line below)', () => {
    const label = stateLabel(
      { ...base, machine: 'PAUSED', pauseReason: 'x'.repeat(200) },
      NOW,
      'en',
    );
    expect(label.length).toBeLessThan(80);
    expect(label.endsWith('…')).toBe(true);
  });

  it('speaks Chinese too', () => {
    expect(stateLabel({ ...base, nextTurnAt: NOW + 120_000 }, NOW, 'zh')).toBe('休息中 · 2m后再看');
  });
});
