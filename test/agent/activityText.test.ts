import { describe, expect, it } from 'vitest';
import { activityText, localTime } from '../../src/agent/activityText.js';
import { activityOf, type ActivityFacts } from '../../src/agent/activity.js';

const NOW = new Date(2026, 11, 4, 15, 0, 0).getTime();
const MIN = 60_000;
const question = { text: 'Sort the scans by year?', at: NOW - 20 * MIN };

describe('activityText: which of working, resting and waiting, in words', () => {
  it.each<[string, Parameters<typeof activityText>[0], string]>([
    ['working', { state: 'working', since: NOW }, 'working'],
    [
      'resting with a timed look',
      { state: 'resting', since: NOW, nextLookAt: NOW + 4 * MIN },
      'resting, next look at 15:04',
    ],
    ['resting free', { state: 'resting', since: NOW }, 'resting, wakes on a change'],
    [
      'waiting for the answer, watching from later',
      { state: 'waiting', since: question.at, question, watchFrom: NOW + 10 * MIN },
      'waiting for your answer since 14:40 · a change wakes a look from 15:10',
    ],
    [
      'waiting for the answer, watching',
      { state: 'waiting', since: question.at, question, watchFrom: NOW - 5 * MIN },
      'waiting for your answer since 14:40 · watching for changes',
    ],
    [
      'your turn after a stop',
      { state: 'waiting', since: NOW - MIN },
      'waiting for you since 14:59',
    ],
    [
      'paused',
      { state: 'paused', since: NOW - MIN, reason: 'daily budget' },
      'paused since 14:59 · daily budget',
    ],
    [
      'working while a question is open',
      { state: 'working', since: NOW, question },
      'working · your question of 14:40 is still open',
    ],
  ])('%s', (_name, activity, want) => {
    expect(activityText(activity, 'en', NOW)).toBe(want);
  });

  it('speaks Chinese', () => {
    expect(activityText({ state: 'resting', since: NOW }, 'zh', NOW)).toBe('休息中，有变化时醒来');
  });

  it('names the day of a time that is not today', () => {
    expect(localTime(NOW - 24 * 60 * MIN, NOW)).toBe('2026-12-03 15:00');
  });
});

describe('activityOf', () => {
  const base: ActivityFacts = {
    machine: 'THINKING',
    inTurn: false,
    scheduledAt: NOW + 30_000,
    freeRest: false,
    reminderAt: undefined,
    pauseReason: undefined,
    question: undefined,
    watchFrom: undefined,
    stateSince: NOW - MIN,
  };
  it('a rest that costs a request names its look; a free one only a reminder', () => {
    expect(activityOf(base)).toEqual({ state: 'resting', nextLookAt: NOW + 30_000 });
    expect(activityOf({ ...base, freeRest: true })).toEqual({ state: 'resting' });
    expect(activityOf({ ...base, freeRest: true, reminderAt: NOW + 9 * MIN })).toEqual({
      state: 'resting',
      nextLookAt: NOW + 9 * MIN,
    });
  });
  it('waiting counts from the question, working is a turn in flight', () => {
    const facts = { ...base, machine: 'AWAITING_INPUT' as const, question, watchFrom: NOW };
    expect(activityOf(facts)).toEqual({
      state: 'waiting',
      since: question.at,
      question,
      watchFrom: NOW,
    });
    expect(activityOf({ ...base, inTurn: true })).toEqual({ state: 'working' });
  });
});
