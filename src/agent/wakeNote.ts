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
  /** The question asked with [WAIT]: still open (a look while it watches) or answered now. */
  question?: QuestionNote;
  /** An autonomous turn's ask to tidy the folder memory (it is near its caps). */
  tidy?: string;
}

/** What a note says of the agent's open question. */
export type QuestionNote =
  | { kind: 'open'; text: string; at: number }
  | { kind: 'answered'; text: string; at: number; arrived: WorkspaceChanges };

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
    (f.reminders?.length ?? 0) > 0 ||
    (f.changes !== undefined && !isEmptyChanges(f.changes)) ||
    f.question?.kind === 'answered';
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
  if (f.question) parts.push(questionText(f.question));
  for (const r of f.reminders ?? []) parts.push(`Reminder due: ${r}`);
  if (f.changes && !isEmptyChanges(f.changes)) {
    parts.push(`Changed in the workspace since you last looked: ${describeChanges(f.changes)}.`);
  }
  if (f.tidy && !f.userLast) parts.push(f.tidy);
  return `(${parts.join(' ')})`;
}

/**
 * The open question, in the note: a look while it watches must not ask it again; the user's
 * answer after looks came between is named as the answer, with all that arrived since.
 */
function questionText(q: QuestionNote): string {
  const asked = `your question of ${noteTime(q.at)} ("${q.text}")`;
  if (q.kind === 'open') {
    return `The user has not answered ${asked} yet; it stays open. Do not ask it again: look at what changed and simply end your reply; their answer will come as their message.`;
  }
  const arrived = isEmptyChanges(q.arrived)
    ? 'Nothing arrived in the workspace since you asked.'
    : `Arrived in the workspace since you asked: ${describeChanges(q.arrived)}.`;
  return `The user's message answers ${asked}. ${arrived}`;
}

function isEmptyChanges(c: WorkspaceChanges): boolean {
  return c.created.length + c.modified.length + c.removed.length === 0;
}
