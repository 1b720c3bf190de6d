/**
 * A script's run (`leaveSaved`) lists the folder's saved reminders but never takes one, due or
 * not, and never wakes for one; the reminders it sets itself work as usual, and saving keeps
 * the ones it left.
 */
import { describe, expect, it } from 'vitest';
import { Reminders, type Reminder } from '../../src/reminders/reminders.js';

const NOW = 1_800_000_000_000;
const saved: Reminder[] = [
  { id: 1, at: NOW - 3600_000, what: 'call the bank', by: 'user' },
  { id: 2, at: NOW + 3600_000, what: 'water the plants', by: 'model' },
];

describe('Reminders with leaveSaved', () => {
  it('leaves the saved ones: listed, never due, never taken', () => {
    const writes: (readonly Reminder[])[] = [];
    const r = new Reminders({ saved, save: (l) => writes.push([...l]) }, { leaveSaved: true });
    expect(r.pending().map((x) => x.what)).toEqual(['call the bank', 'water the plants']);
    expect(r.hasDue(NOW + 7200_000)).toBe(false);
    expect(r.nextAt()).toBeUndefined();
    expect(r.takeDue(NOW + 7200_000)).toEqual([]);
    expect(writes).toEqual([]);
  });

  it("takes only its own, and saves the others' along", () => {
    const writes: (readonly Reminder[])[] = [];
    const r = new Reminders({ saved, save: (l) => writes.push([...l]) }, { leaveSaved: true });
    const own = r.add(NOW + 60_000, 'check the export', 'model');
    if (typeof own === 'string') throw new Error(own);
    expect(own.id).toBe(3);
    expect(r.nextAt()).toBe(NOW + 60_000);
    expect(r.takeDue(NOW + 7200_000).map((x) => x.what)).toEqual(['check the export']);
    expect(writes.at(-1)!.map((x) => x.id)).toEqual([1, 2]);
  });

  it('without it, a due saved reminder is taken (the user’s run)', () => {
    const r = new Reminders({ saved, save: () => undefined });
    expect(r.takeDue(NOW).map((x) => x.what)).toEqual(['call the bank']);
  });
});
