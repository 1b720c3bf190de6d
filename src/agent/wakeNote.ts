import type { TurnTrigger } from '../api/trace.js';
import type { WorkspaceChanges } from '../watch/changes.js';
import { describeChanges } from '../watch/changes.js';

/** What a turn's note says besides its reason. */
export interface WakeFacts {
  trigger: TurnTrigger;
  cycle: number;
  now: number;
  /** Workspace changes seen since the previous turn (any trigger may carry them). */
  changes?: WorkspaceChanges;
  /** Reminders that came due, as `what (set for when)`. */
  reminders?: readonly string[];
  /** The context ends on the user's words: the turn answers them, the user is here. */
  userLast: boolean;
}

/** Minutes are enough for the model, and keep the note short. */
export function noteTime(now: number): string {
  return `${new Date(now).toISOString().slice(0, 16)}Z`;
}

/**
 * The short user-role note at the end of a request: the time and why this turn started.
 * It lives at the end, never in the system prompt, so the prefix stays byte-identical.
 * A turn that answers the user's words gets a note only when there is news (changes, a
 * reminder), so what the user wrote reaches the model as written.
 */
export function wakeNote(f: WakeFacts): string | undefined {
  const time = noteTime(f.now);
  const parts: string[] = [];
  const news =
    (f.reminders?.length ?? 0) > 0 || (f.changes !== undefined && !isEmptyChanges(f.changes));
  if (f.userLast && !news) return undefined;
  switch (f.userLast ? 'user' : f.trigger) {
    case 'user':
      parts.push(`Now: ${time}.`);
      break;
    case 'change':
      parts.push(`Woke up because the workspace changed. Now: ${time}.`);
      break;
    case 'schedule':
      parts.push(`Woke up for a reminder. Now: ${time}.`);
      break;
    case 'resume':
      parts.push(`Autonomy resumed. Now: ${time}.`);
      break;
    default:
      parts.push(
        `Autonomous cycle ${f.cycle}. Now: ${time}. The user is not here right now. Continue your own work: explore, read, organise, note what you find. Write [WAIT] at the very end only when you need the user's answer.`,
      );
  }
  for (const r of f.reminders ?? []) parts.push(`Reminder due: ${r}`);
  if (f.changes && !isEmptyChanges(f.changes)) {
    parts.push(`Changed in the workspace since you last looked: ${describeChanges(f.changes)}.`);
  }
  return `(${parts.join(' ')})`;
}

function isEmptyChanges(c: WorkspaceChanges): boolean {
  return c.created.length + c.modified.length + c.removed.length === 0;
}
