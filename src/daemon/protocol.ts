/**
 * The background agent's wire: JSON lines over its Unix socket (docs/ARCHITECTURE.md, "The
 * socket"). Each side opens with a hello naming the protocol version; then the client sends
 * requests (with an id, answered by a reply with the same id) and agent commands, and, once
 * it has subscribed, receives the agent's events. Every message is one JSON object on one
 * line; a client line longer than {@link MAX_LINE_BYTES} or one that does not parse gets an
 * error line naming the problem, never a crash. The agent's messages have no size limit: a
 * long one travels in parts of bounded lines (frames.ts).
 */
import { parseCommand, type AgentCommand } from '../api/commands.js';
import type { Activity } from '../api/activity.js';
import type { BarFacts } from '../agent/stateLabel.js';

/**
 * Bumped on any change a peer of the previous version would misread. 2: long messages come
 * in parts; `answer_approval` must name its card; the `approval` request.
 */
export const PROTOCOL_VERSION = 2;

/**
 * No line on the wire is longer than this: a client's longer line ends its connection (a
 * hostile or broken peer); the agent splits a longer message into parts.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * What a client may ask; each is answered by one reply. `snapshot`: the agent's display
 * state as plain data (`agent.snapshot()`: the history, the approval waiting, …). `attach` is
 * a screen's start: its reply carries the snapshot and, in the same tick, subscribes the
 * connection, so every event after the snapshot follows it and none falls between.
 * `approval`: only the approval waiting, `{ approval: ApprovalRequest | null }` (what a shell's
 * `approve|deny` answers, whatever else the agent's state holds).
 */
export type RequestMethod = 'status' | 'stop' | 'subscribe' | 'snapshot' | 'attach' | 'approval';

/** Client → agent. */
export type ClientMessage =
  | { type: 'hello'; protocol: number; client?: string }
  | { type: 'request'; id: number; method: RequestMethod }
  | { type: 'command'; command: AgentCommand }
  /** A screen attached to the agent says whether its terminal has focus (notifications). */
  | { type: 'screen'; focused: boolean };

/** One agent's answer to `status`. */
export interface AgentStatus {
  workspace: string;
  pid: number;
  /** The machine state: THINKING, AWAITING_INPUT, PAUSED, AWAITING_APPROVAL. */
  state: string;
  /** When the machine entered `state` (ISO time). */
  since: string;
  /** When a turn last started or ended, or a message was added (ISO time); none yet: start. */
  lastActivity: string;
  /** Tokens spent in the last 24 hours by this home's sessions. */
  tokensToday: number;
  started: string;
  sessionId: string;
  /**
   * Which of working, resting (`nextLookAt`, or none: it wakes on a change) and waiting for
   * the user's answer (since the question was asked) it is; also paused or an approval.
   */
  activity?: Activity;
  /** The same in words: `waiting for your answer since 09:12 · watching for changes`. */
  doing?: string;
  /** What the status bar is drawn from (absent from an agent of an older version). */
  bar?: BarFacts;
}

/** Agent → client. */
export type ServerMessage =
  | { type: 'hello'; protocol: number; pid: number; workspace: string }
  | { type: 'reply'; id: number; result: unknown }
  | { type: 'event'; event: unknown }
  | { type: 'error'; id?: number; message: string };

const METHODS: readonly RequestMethod[] = [
  'status',
  'stop',
  'subscribe',
  'snapshot',
  'attach',
  'approval',
];
/** One line, encoded (a client's; the agent's go through frames.ts). */
export function encode(message: ClientMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** A client line parsed and checked, or the problem to send back. */
export function parseClientLine(
  line: string,
): { ok: true; message: ClientMessage } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, message: 'not JSON: send one JSON object per line' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'not a JSON object: send {"type": ...} objects' };
  }
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'hello':
      if (typeof m.protocol !== 'number') {
        return { ok: false, message: `hello needs "protocol": ${PROTOCOL_VERSION}` };
      }
      return { ok: true, message: { type: 'hello', protocol: m.protocol } };
    case 'request':
      if (typeof m.id !== 'number' || !METHODS.includes(m.method as RequestMethod)) {
        return {
          ok: false,
          message: `a request needs a numeric "id" and "method" one of ${METHODS.join(', ')}`,
        };
      }
      return {
        ok: true,
        message: { type: 'request', id: m.id, method: m.method as RequestMethod },
      };
    case 'command': {
      // The Agent API's own check: it names what is wrong and the shape that is right.
      const command = parseCommand(m.command);
      if ('problem' in command) return { ok: false, message: `the command: ${command.problem}` };
      return { ok: true, message: { type: 'command', command } };
    }
    case 'screen':
      if (typeof m.focused !== 'boolean') {
        return { ok: false, message: 'a screen message needs "focused": true or false' };
      }
      return { ok: true, message: { type: 'screen', focused: m.focused } };
    default:
      return {
        ok: false,
        message: `unknown message type ${JSON.stringify(m.type)}: use hello, request, command or screen`,
      };
  }
}
