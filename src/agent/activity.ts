import type { Activity, OpenQuestionFacts } from '../api/activity.js';
import type { AgentEvent } from '../api/events.js';
import type { MachineState } from '../machine/machine.js';

/** What the agent's activity is made of, read when it may have changed. */
export interface ActivityFacts {
  machine: MachineState;
  /** A turn runs (between its turn_start and turn_end). */
  inTurn: boolean;
  /** When the scheduler's one timer fires next (a timed look or a reminder). */
  scheduledAt: number | undefined;
  /** Resting costs nothing: a timed look is skipped unless something changed. */
  freeRest: boolean;
  /** The next reminder, which wakes a free rest too. */
  reminderAt: number | undefined;
  pauseReason: string | undefined;
  question: OpenQuestionFacts | undefined;
  watchFrom: number | undefined;
  /** When the machine last changed state. */
  stateSince: number;
}

/**
 * The three states a user tells apart (working, resting, waiting for their answer), plus
 * paused and an approval waiting, from the facts. Pure. A rest whose timed looks cost nothing
 * names no next look unless a reminder comes: it wakes on a change.
 */
export function activityOf(f: ActivityFacts): Omit<Activity, 'since'> & { since?: number } {
  const question = f.question ? { question: f.question } : {};
  if (f.machine === 'AWAITING_APPROVAL') {
    return { state: 'approval', since: f.stateSince, ...question };
  }
  if (f.machine === 'AWAITING_INPUT') {
    return {
      state: 'waiting',
      since: f.question?.at ?? f.stateSince,
      ...question,
      ...(f.watchFrom !== undefined ? { watchFrom: f.watchFrom } : {}),
    };
  }
  if (f.inTurn) return { state: 'working', ...question };
  if (f.machine === 'PAUSED') {
    const reason = f.pauseReason ? { reason: f.pauseReason } : {};
    return { state: 'paused', since: f.stateSince, ...reason, ...question };
  }
  const nextLookAt = f.freeRest ? f.reminderAt : f.scheduledAt;
  return { state: 'resting', ...(nextLookAt !== undefined ? { nextLookAt } : {}), ...question };
}

/**
 * Follows the agent's own events and tells its activity whenever it changes (the `activity`
 * event), so the status bar, `cogito status`, the away digest and `-p --json` all say the same.
 */
export class ActivityTracker {
  private inTurn = false;
  private scheduledAt: number | undefined;
  private stateSince: number;
  private last: Activity | undefined;
  private lastKey = '';

  constructor(
    private readonly read: () => Omit<ActivityFacts, 'inTurn' | 'scheduledAt' | 'stateSince'>,
    private readonly now: () => number,
    private readonly tell: (activity: Activity) => void,
  ) {
    this.stateSince = now();
  }

  /** The activity as last told. */
  get current(): Activity | undefined {
    return this.last;
  }

  /** Takes one of the agent's events; tells the activity if it changed. */
  see(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        this.inTurn = true;
        break;
      case 'turn_end':
        this.inTurn = false;
        break;
      case 'scheduled':
        this.scheduledAt = event.at;
        break;
      case 'state_changed':
        this.stateSince = this.now();
        break;
      default:
        return;
    }
    this.refresh();
  }

  /** Something the events do not show changed (workspace changes, the rest became free). */
  refresh(): void {
    const facts = {
      ...this.read(),
      inTurn: this.inTurn,
      scheduledAt: this.scheduledAt,
      stateSince: this.stateSince,
    };
    const { since, ...rest } = activityOf(facts);
    const key = JSON.stringify(rest);
    if (key === this.lastKey) return;
    const sameState = this.last?.state === rest.state;
    const at = since ?? (sameState && this.last ? this.last.since : this.now());
    this.lastKey = key;
    this.last = { ...rest, since: at } as Activity;
    this.tell(this.last);
  }
}
