import { describe, expect, it } from 'vitest';
import { OpenQuestion, questionLine } from '../../src/agent/openQuestion.js';
import { FakeClock } from '../helpers/fakeClock.js';

const MIN = 60_000;
const settle = () => Promise.resolve();

describe('OpenQuestion', () => {
  it('an autonomous question watches after resumeAfterMs, calling onWatch once then', async () => {
    const clock = new FakeClock();
    const q = new OpenQuestion(() => 30 * MIN, clock);
    let calls = 0;
    q.onWatch(() => (calls += 1));
    const at = clock.now();
    q.asked('Three scans came.\nSort them by year? **[WAIT]**', true);
    expect(q.facts).toEqual({ text: 'Sort them by year?', at });
    expect(q.watchFrom).toBe(at + 30 * MIN);
    await clock.advance(30 * MIN - 1, settle);
    expect([calls, q.watching()]).toEqual([0, false]);
    await clock.advance(1, settle);
    expect([calls, q.watching()]).toEqual([1, true]);
    // Asked again while open: the time it was first asked stays.
    q.asked('Sort them by month?\n[WAIT]', true);
    expect(q.facts).toEqual({ text: 'Sort them by month?', at });
  });

  it("the user's own question never watches; 0 never watches", () => {
    const clock = new FakeClock();
    const user = new OpenQuestion(() => 30 * MIN, clock);
    user.asked('Which folder?', false);
    expect(user.watchFrom).toBeUndefined();
    const off = new OpenQuestion(() => 0, clock);
    off.asked('Sort them?', true);
    expect(off.watchFrom).toBeUndefined();
    expect(off.watching()).toBe(false);
  });

  it('closing hands over the question, the looks and all that arrived since; then it is gone', () => {
    const clock = new FakeClock();
    const q = new OpenQuestion(() => MIN, clock);
    q.noteChanges({ created: ['before.txt'], modified: [], removed: [] });
    q.asked('Sort them?', true);
    q.noteChanges({ created: ['a.pdf'], modified: [], removed: [] });
    q.looked();
    q.noteChanges({ created: ['b.pdf'], modified: ['a.pdf'], removed: [] });
    const answered = q.close();
    expect(answered).toMatchObject({ question: { text: 'Sort them?' }, looks: 1 });
    expect(answered!.arrived.created).toEqual(['a.pdf', 'b.pdf']);
    expect(q.facts).toBeUndefined();
    expect(q.close()).toBeUndefined();
  });

  it('questionLine keeps the last line, without the marker, cut to 300 characters', () => {
    expect(questionLine('Done.\n\nShall I go on?\n[WAIT]')).toBe('Shall I go on?');
    expect(questionLine('[WAIT]')).toBe('');
    expect(questionLine('x'.repeat(400))).toHaveLength(300);
  });
});
