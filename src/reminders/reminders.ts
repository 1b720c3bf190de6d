import { Listeners } from '../core/listeners.js';

/** One reminder: what to look at, and when. */
export interface Reminder {
  id: number;
  at: number;
  what: string;
  /** Who set it. */
  by: 'model' | 'user';
}

/** More than this many pending reminders is a runaway model, not a plan. */
export const MAX_REMINDERS = 100;

/** Where the list is kept between runs (absent: in memory only, as in most tests). */
export interface ReminderStore {
  /** The reminders saved by an earlier run, due ones included (they fire once, now). */
  saved: readonly Reminder[];
  /** Called with the whole list after every change; a failure is reported, not thrown. */
  save(list: readonly Reminder[]): void;
}

/**
 * The pending reminders (the `schedule` wake-up). The scheduler asks `nextAt()` so its one
 * timer also covers the next reminder; a turn takes the due ones with `takeDue()`. With a
 * store, every change is saved, so a restart keeps them and one that fell due while Cogito
 * was closed is taken (and fires) once, by the first turn.
 */
export class Reminders {
  private list: Reminder[] = [];
  private nextId = 0;
  private readonly listeners = new Listeners();
  private readonly dueListeners = new Listeners<[readonly Reminder[]]>();
  /** The ids of saved reminders this run leaves for another (`leaveSaved`). */
  private readonly left = new Set<number>();

  /**
   * `leaveSaved` (a script's `cogito -p`): the reminders saved by earlier runs are listed
   * and kept, but never taken, due or not: they are the user's, for the screen or the
   * background agent to deliver. Only the reminders this run sets can fall due in it.
   */
  constructor(
    private readonly store?: ReminderStore,
    opts: { leaveSaved?: boolean } = {},
  ) {
    if (!store) return;
    this.list = store.saved.slice(0, MAX_REMINDERS).sort((a, b) => a.at - b.at);
    this.nextId = Math.max(0, ...this.list.map((r) => r.id));
    if (opts.leaveSaved) for (const r of this.list) this.left.add(r.id);
  }

  /** Adds a reminder; an error text when there are too many or `what` is empty. */
  add(at: number, what: string, by: Reminder['by']): Reminder | string {
    const text = what.trim();
    if (text === '') return 'say what to be reminded of, e.g. remind("10m", "check the build log")';
    if (this.list.length >= MAX_REMINDERS) {
      return `there are already ${MAX_REMINDERS} pending reminders: let some come due first`;
    }
    const r: Reminder = { id: ++this.nextId, at, what: text.slice(0, 500), by };
    this.list.push(r);
    this.list.sort((a, b) => a.at - b.at);
    this.store?.save(this.list);
    this.listeners.emit();
    return r;
  }

  /** When the earliest reminder this run may take is due. */
  nextAt(): number | undefined {
    return this.takeable()[0]?.at;
  }

  hasDue(now: number): boolean {
    const first = this.takeable()[0];
    return first !== undefined && first.at <= now;
  }

  /** Removes and returns the reminders due at `now` (never one this run leaves alone). */
  takeDue(now: number): Reminder[] {
    const due = this.takeable().filter((r) => r.at <= now);
    if (due.length === 0) return due;
    this.list = this.list.filter((r) => !due.includes(r));
    this.store?.save(this.list);
    this.dueListeners.emit(due);
    return due;
  }

  /** Every pending reminder, those left for another run included (what /reminders lists). */
  pending(): readonly Reminder[] {
    return this.list;
  }

  /** The pending reminders this run may take, earliest first (what wakes the agent). */
  takeable(): readonly Reminder[] {
    return this.left.size === 0 ? this.list : this.list.filter((r) => !this.left.has(r.id));
  }

  /** Told whenever a reminder is added (the scheduler re-arms its timer). */
  onAdded(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Told with the reminders a turn took (the agent's `reminders_due` event). */
  onDue(listener: (due: readonly Reminder[]) => void): () => void {
    return this.dueListeners.subscribe(listener);
  }
}
