import type { AgentEvent } from '../api/events.js';
import type { NotifyKind } from '../config/notifySchema.js';
import { cleanLine } from './sanitize.js';

/** One thing the user is told about, already clean (sanitize.ts) and short. */
export interface Notification {
  kind: NotifyKind;
  /** Names this occurrence: the same key is never notified twice. */
  key: string;
  title: string;
  text: string;
  /** When it happened (ms since the epoch). */
  at: number;
}

/** Where notifications go: the terminal, the desktop, the user's own command. */
export interface NotifyChannel {
  /** Short name for the failure notice, e.g. "notify-send". */
  readonly name: string;
  /** Resolves when delivered; rejects with what went wrong (the notifier reports it once). */
  send(n: Notification): Promise<void>;
}

const TITLE = 'Cogito';
const WAIT_MARKER = /(\*\*)?\[WAIT\](\*\*)?[\p{P}\s]*$/u;

/** The first line of a reply that ended with [WAIT], without the marker. */
export function firstLine(reply: string): string {
  const body = reply.replace(WAIT_MARKER, '');
  const line = body.split('\n').find((l) => l.trim() !== '') ?? '';
  return cleanLine(line) || 'waiting for your answer';
}

/**
 * Reads the agent's events and says which ones need the user, as notifications (still to be
 * filtered by kind, quiet hours and focus). Keeps the little state that takes: the reply of
 * the turn in progress, and whether the agent is already paused (a pause is one occurrence
 * until the agent leaves PAUSED, however many limits it hits in between).
 */
export function createEventReader(now: () => number = Date.now): {
  read(event: AgentEvent): Notification | undefined;
} {
  let reply = '';
  let pauses = 0;
  let paused = false;
  const make = (kind: NotifyKind, key: string, text: string): Notification => ({
    kind,
    key,
    title: TITLE,
    text: cleanLine(text),
    at: now(),
  });
  return {
    read(event) {
      switch (event.type) {
        case 'turn_start':
          reply = '';
          return undefined;
        case 'reminders_due': {
          // The user's own reminders call them; the model's are its own wake-ups (it asks
          // with [WAIT] when it needs the user).
          const mine = event.reminders.filter((r) => r.by === 'user');
          if (mine.length === 0) return undefined;
          const label = mine.length === 1 ? 'Reminder' : 'Reminders';
          return make(
            'reminder',
            `reminder:${mine.map((r) => r.id).join(',')}`,
            `${label}: ${mine.map((r) => r.what).join('; ')}`,
          );
        }
        case 'message_added':
          if (event.message.role === 'assistant') reply = event.message.content;
          return undefined;
        case 'turn_end':
          if (!event.wait) return undefined;
          return make('wait', `wait:${event.turnId}`, firstLine(reply));
        case 'approval_request':
          return make(
            'approval',
            `approval:${event.request.id}`,
            `Approval needed: ${event.request.call} (${event.request.reason})`,
          );
        case 'state_changed': {
          const entering = event.to === 'PAUSED' && !paused;
          paused = event.to === 'PAUSED';
          // Only pauses the agent made by itself: the user's own pause needs no call.
          if (!entering || event.event !== 'AUTO_PAUSE') return undefined;
          pauses += 1;
          return make(
            'pause',
            `pause:${pauses}`,
            `Paused: ${event.reason ?? 'a limit was reached'}`,
          );
        }
        default:
          return undefined;
      }
    },
  };
}

/** The notification for a background agent that stopped on an error. */
export function stoppedNotification(reason: string, at: number): Notification {
  return {
    kind: 'stopped',
    key: `stopped:${at}`,
    title: TITLE,
    text: cleanLine(`Stopped: ${reason}`),
    at,
  };
}
