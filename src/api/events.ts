import { Listeners } from '../core/listeners.js';
import type { HistoryMessage, PartsUpdate, ReplyParts } from '../core/messages.js';
import type { MachineEvent, MachineState } from '../machine/machine.js';
import type { TurnTrace, TurnTrigger, TurnOutcomeKind } from './trace.js';
import type { TurnError, Usage } from '../providers/types.js';
import type { ToolArg, ToolErrorKind, ToolKind } from '../tools/types.js';
import type { CycleRecord } from './ledger.js';
import type { Activity } from './activity.js';
import type { Lang } from '../i18n/messages.js';

export interface ApprovalRequest {
  id: number;
  tool: string;
  kind: ToolKind;
  /** The call as the model wrote it, e.g. `delete("old.txt")`. */
  call: string;
  /** Why it asks: the kind's policy, or a tool's own reason (overwriting a file). */
  reason: string;
  /** What will really happen, shown in full: content written, the resolved command line. */
  detail?: string;
  /** `diff`: the detail is a unified diff against the file as it is now. */
  detailKind?: 'text' | 'diff';
}

export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** A message the user queued (`queue`) that no turn has taken yet: editable, droppable by id. */
export interface QueuedMessage {
  id: string;
  text: string;
  /** When it was queued (ms since the epoch). */
  at: number;
}

export interface ToolLogEntry {
  callId: string;
  turnId: number;
  name: string;
  args: readonly ToolArg[];
  call: string;
  status: 'running' | 'ok' | 'error' | 'denied' | 'skipped';
  /** One line for the log. */
  summary?: string;
  /** The whole result as the model saw it, before truncation. */
  full?: string;
  errorKind?: ToolErrorKind;
  /** The unified diff of the change an edit or overwrite made (for the tool detail). */
  diff?: string;
  /** For a change the journal recorded: the command that reverts it (`/undo notes.md`). */
  undo?: string;
  durationMs?: number;
  startedAt: number;
}

/**
 * The one closed union of what the agent reports, all plain data (each event survives
 * `JSON.parse(JSON.stringify(e))` whole, so it can cross a socket). Only the agent emits
 * them; only the store turns them into state (its reducer; `state_changed` reports a move
 * the store's `dispatch` has already made). The screen and print mode read the store or this
 * stream and ask things of the agent with `send` (src/api/commands.ts). Quitting is not an
 * event: it is the host's port (`AgentDeps.quit`).
 */
export type AgentEvent =
  | {
      type: 'state_changed';
      from: MachineState;
      to: MachineState;
      event: MachineEvent;
      reason?: string;
    }
  | { type: 'history_loaded'; messages: readonly HistoryMessage[] }
  | { type: 'turn_start'; turnId: number; trigger: TurnTrigger; cycle: number }
  | { type: 'request_start'; turnId: number; promptTokens: number }
  | { type: 'reasoning_delta'; turnId: number; text: string }
  /**
   * The reply is read once, by the turn, as it streams (like pi-mono's message events): its
   * start, then per piece of text the piece (`delta`, redacted) and what it changed in the
   * reply's parts (`parts`: the parts settled since the last update and the unsettled tail,
   * so a long reply does not travel whole with every piece), then its end with all its
   * parts. What the screen draws from them is what it draws once the reply is saved.
   */
  | { type: 'message_start'; turnId: number }
  | { type: 'message_update'; turnId: number; delta: string; parts: PartsUpdate }
  | { type: 'message_end'; turnId: number; parts: ReplyParts }
  | { type: 'usage'; turnId: number; usage: Usage; estimated: boolean }
  | { type: 'message_added'; message: HistoryMessage }
  | { type: 'messages_replaced'; messages: readonly HistoryMessage[] }
  | { type: 'tool_start'; entry: ToolLogEntry }
  | { type: 'tool_end'; entry: ToolLogEntry }
  | { type: 'approval_request'; request: ApprovalRequest }
  | { type: 'approval_resolved'; id: number; answer: ApprovalAnswer }
  | {
      type: 'turn_end';
      turnId: number;
      outcome: TurnOutcomeKind;
      wait: boolean;
      trace: TurnTrace;
      /** The cycle count now, when the turn gave its cycle back (no request reached the server). */
      cycle?: number;
    }
  | { type: 'error'; turnId?: number; error: TurnError }
  /**
   * A request failed in a way another try may cure: the same request goes again, in the same
   * turn, after `delayMs`; what the failed try streamed is dropped. `attempt` is the next
   * try's number (2 for the first retry); `text` says all this to the user.
   */
  | {
      type: 'retrying';
      turnId: number;
      attempt: number;
      delayMs: number;
      error: TurnError;
      text: string;
    }
  | { type: 'notice'; level: 'info' | 'warn'; text: string }
  /** When the next look is due; absent: none is planned. */
  | { type: 'scheduled'; at?: number }
  /** What the next request waits for (MCP servers connecting); absent: nothing any more. */
  | { type: 'preparing'; what?: string }
  | {
      type: 'settings_changed';
      model?: string;
      /** The language the agent speaks to the user in. */
      lang?: Lang;
      persona?: string;
      contextWindow?: number;
      maxCycles?: number;
      budgetPerHour?: number;
      budgetPerDay?: number;
    }
  /** How many files the agent has changed (and not undone) in this session. */
  | { type: 'files_changed'; count: number }
  /** How many background commands (`run` with background: true) are running now. */
  | { type: 'commands_running'; count: number }
  /**
   * The queued messages, oldest first, after every change: one queued, edited or dropped, or
   * taken by a turn's RESTORE (then the list no longer holds it). The whole list, so a mirror
   * needs nothing else.
   */
  | { type: 'queue_changed'; items: readonly QueuedMessage[] }
  | { type: 'budget'; usedLastHour: number; usedLastDay?: number }
  /** Reminders that fell due and were handed to the turn starting now (oldest first). */
  | { type: 'reminders_due'; reminders: readonly DueReminder[] }
  /** One turn's ledger record, written to the session folder. */
  | { type: 'cycle_recorded'; record: CycleRecord }
  /** The session's earlier ledger records (at start, after /new). */
  | { type: 'ledger_loaded'; records: readonly CycleRecord[] }
  /** What the agent is doing now (working, resting, waiting for the user…), when it changes. */
  | { type: 'activity'; activity: Activity };

export type AgentListener = (event: AgentEvent) => void;

/** A reminder as the events carry it: what it says, when it was set for, and who set it. */
export interface DueReminder {
  id: number;
  at: number;
  what: string;
  by: 'model' | 'user';
}

/**
 * The agent's listeners: the core's one listener set (src/core/listeners.ts), where a listener
 * that throws is told to `onListenerError` and the others still run. A broken listener (a UI
 * bug) must not take the agent down, and must not print over a full-screen UI either. A
 * follower hears only the event types it names, after every listener has had the event (the
 * agent's own parts that act on what was told, such as the open question's watch).
 */
export class AgentEmitter extends Listeners<[event: AgentEvent]> {
  private readonly followers: { types: ReadonlySet<string>; listener: AgentListener }[] = [];

  constructor(onListenerError: (err: unknown, event: AgentEvent) => void = () => {}) {
    super(onListenerError);
  }

  /** Hears the events of `types` only, after the listeners. */
  follow(types: readonly AgentEvent['type'][], listener: AgentListener): void {
    this.followers.push({ types: new Set(types), listener });
  }

  override emit(event: AgentEvent): void {
    super.emit(event);
    for (const f of this.followers) if (f.types.has(event.type)) f.listener(event);
  }
}
