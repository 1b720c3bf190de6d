/**
 * What may be asked of the agent: the one way in (`agent.send(command)`). Every command is
 * plain data, so a screen in the same process and a screen over a socket (issue #27) send
 * the same thing; what the agent did is seen in its events and its store, not in a reply.
 */
import type { ApprovalAnswer } from './events.js';

export type AgentCommand =
  /** Enter: stop whatever is in flight and answer this (empty text: just think again now). */
  | { type: 'submit'; text: string }
  /**
   * A message for the next turn boundary: the work in flight goes on, and the next user turn
   * takes it (it joins the input queue, like a submit, without interrupting).
   */
  | { type: 'queue'; text: string }
  /**
   * Steer the work in flight: at its next tool boundary the calls not yet started come back
   * "deferred by the user" and the turn reads this message at once, as the user's amendment
   * to its task (what already ran is kept). With nothing in flight (or for a slash command)
   * it is a `queue`.
   */
  | { type: 'steer'; text: string }
  /** A queued message's new text, before a turn takes it (ids from `queue_changed`). */
  | { type: 'edit_queued'; id: string; text: string }
  /** A queued message taken back before a turn takes it. */
  | { type: 'drop_queued'; id: string }
  /** Stop the turn in flight and listen (Esc, Ctrl+C while busy). */
  | { type: 'interrupt' }
  /** Autonomy off; the turn in flight stops. */
  | { type: 'pause'; reason?: string }
  /** Autonomy back on. */
  | { type: 'resume' }
  /** The pause key: pause, or resume when paused. */
  | { type: 'toggle_pause' }
  /**
   * The user's answer to the approval prompt on screen. With `id` (the request's, as the
   * client showed it) it answers only that request: a client that showed one card never
   * answers another that took its place meanwhile. Every door sends it (the screens, print
   * mode, the shell's approve|deny), and a command from outside the process without it is
   * refused (`parseCommand`).
   */
  | { type: 'answer_approval'; answer: ApprovalAnswer; id?: number }
  /** A slash command (`/help`, `/model x`); the leading slash may be left out. */
  | { type: 'command'; text: string }
  /**
   * Start a new, empty session (what `/new` does). Switching to a saved session by id waits
   * for a command that does it (today only `--session ID` at start opens one).
   */
  | { type: 'new_session' }
  /** Something the host wants the user to see among the agent's notices. */
  | { type: 'notice'; level?: 'info' | 'warn'; text: string };

export type AgentCommandType = AgentCommand['type'];

/** Every command type, for a clear error when a client sends another. */
export const AGENT_COMMAND_TYPES: readonly AgentCommandType[] = [
  'submit',
  'queue',
  'steer',
  'edit_queued',
  'drop_queued',
  'interrupt',
  'pause',
  'resume',
  'toggle_pause',
  'answer_approval',
  'command',
  'new_session',
  'notice',
];

const ANSWERS: readonly ApprovalAnswer[] = ['yes', 'no', 'always'];

/** What `send` reports: whether the command was taken, and if not, why and what to do. */
export type SendResult = { ok: true } | { ok: false; problem: string };

/**
 * Checks a command that came as untrusted data (a socket line, JSON): the command, or the
 * problem and its fix. Commands built in code are typed and need no check.
 */
export function parseCommand(value: unknown): AgentCommand | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'a command must be a JSON object like {"type":"submit","text":"hi"}' };
  const c = value as Record<string, unknown>;
  const type = c['type'];
  if (typeof type !== 'string' || !AGENT_COMMAND_TYPES.includes(type as AgentCommandType))
    return {
      problem: `unknown command type ${JSON.stringify(type)}: use one of ${AGENT_COMMAND_TYPES.join(', ')}`,
    };
  const needsText = ['submit', 'queue', 'steer', 'edit_queued', 'command', 'notice'].includes(type);
  if (needsText && typeof c['text'] !== 'string')
    return { problem: `"${type}" needs a "text" string, e.g. {"type":"${type}","text":"…"}` };
  if ((type === 'edit_queued' || type === 'drop_queued') && typeof c['id'] !== 'string')
    return {
      problem: `"${type}" needs the queued message's "id" string (from the queue_changed event), e.g. {"type":"${type}","id":"q1"}`,
    };
  if (type === 'answer_approval' && !ANSWERS.includes(c['answer'] as ApprovalAnswer))
    return { problem: `"answer_approval" needs "answer": one of ${ANSWERS.join(', ')}` };
  // From outside the process an answer must name its card: a client whose view lags would
  // otherwise answer whatever card took the place of the one it showed.
  if (type === 'answer_approval' && !Number.isInteger(c['id']))
    return {
      problem:
        '"answer_approval" needs the "id" of the approval it answers (the approval_request event\'s request.id), e.g. {"type":"answer_approval","answer":"yes","id":3}',
    };
  if (type === 'pause' && c['reason'] !== undefined && typeof c['reason'] !== 'string')
    return { problem: '"pause" takes an optional "reason" string' };
  if (
    type === 'notice' &&
    c['level'] !== undefined &&
    c['level'] !== 'info' &&
    c['level'] !== 'warn'
  )
    return { problem: '"notice" takes an optional "level": info or warn' };
  return value as AgentCommand;
}

/** The text a `command` runs: its slash added when left out; a problem when it is none. */
export function slashCommandText(text: string): string | { problem: string } {
  const trimmed = text.trim();
  const slashed = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if (trimmed === '' || slashed.startsWith('//'))
    return {
      problem: `"${text}" is not a slash command: name one (e.g. "help"), or send text with submit`,
    };
  return slashed;
}

/** A problem with an `edit_queued` command's text, if any. */
export function editQueuedProblem(text: string): string | undefined {
  return text.trim() === ''
    ? 'a queued message cannot be edited to nothing: send new text, or drop_queued to take it back'
    : undefined;
}

/** The problem when no queued message has this id (delivered already, dropped, or never queued). */
export function unknownQueuedProblem(id: string): string {
  return `no queued message has id ${JSON.stringify(id)}: it was delivered or dropped already, or never queued; the queue_changed event lists the ids waiting`;
}

/** A problem with a `queue` command's text, if any. */
export function queueProblem(text: string): string | undefined {
  return text.trim() === ''
    ? 'an empty message has nothing to queue: send text, or submit "" to think again now'
    : undefined;
}
