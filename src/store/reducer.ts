import {
  joinParts,
  type HistoryMessage,
  type ReplyPart,
  type ReplyParts,
} from '../core/messages.js';
import type { AgentEvent, ApprovalRequest, QueuedMessage, ToolLogEntry } from '../api/events.js';
import type { MachineState } from '../machine/machine.js';
import type { TurnTrace } from '../api/trace.js';
import type { CycleRecord } from '../api/ledger.js';
import type { Activity } from '../api/activity.js';
import type { Lang } from '../i18n/messages.js';
import { lastReasoningOf, tokensFromLedger, toolLogFromHistory } from './restoredView.js';

export interface Notice {
  id: number;
  level: 'info' | 'warn' | 'error';
  text: string;
  at: number;
}

/** Everything the screen shows, derived only from agent events. */
export interface AgentViewState {
  machine: MachineState;
  /** Why the agent paused by itself (cycle limit, budget, loop guard, failures). */
  pauseReason: string | undefined;
  /** A model request is streaming right now. */
  streaming: boolean;
  turnId: number;
  /** Reasoning and reply of the turn in flight (cleared when its message is saved). */
  liveReasoning: string;
  liveReply: string;
  /**
   * The parts of `liveReply` as the turn's reader read them (`message_update`): the screen
   * draws these and parses nothing. `liveSettled` are the ones that can no longer change.
   */
  liveParts: ReplyParts;
  liveSettled: readonly ReplyPart[];
  /** The reply in flight has all come (`message_end`): it is drawn as it will be saved. */
  liveEnded: boolean;
  /** The reasoning of the last finished turn, kept for the reasoning pane. */
  lastReasoning: string;
  messages: readonly HistoryMessage[];
  toolLog: readonly ToolLogEntry[];
  traces: readonly TurnTrace[];
  approval: ApprovalRequest | undefined;
  notices: readonly Notice[];
  /** Autonomous cycles since the user last spoke. */
  cycle: number;
  /** Tokens of the last request's prompt: how full the context is. */
  contextTokens: number;
  /** All tokens used this session (prompt + completion). */
  sessionTokens: number;
  nextTurnAt: number | undefined;
  /** When a failed request is tried again (epoch ms), while its back-off runs. */
  retryAt: number | undefined;
  /** What the request in preparation waits for ("connecting MCP: fx…"), for the status bar. */
  preparing: string | undefined;
  model: string;
  persona: string;
  /** The language the agent speaks to the user in (its settings). */
  lang: Lang;
  /** The model's context window, for the status bar's context use. */
  contextWindow: number;
  /** maxAutonomousCycles (0 = unlimited). */
  maxCycles: number;
  /** tokenBudgetPerHour (0 = off) and the tokens used in the last hour. */
  budgetPerHour: number;
  budgetUsed: number;
  /** Files the agent changed in this session and has not undone (from the change journal). */
  filesChanged: number;
  /** Background commands running now (`run` with background: true). */
  commandsRunning: number;
  /** tokenBudgetPerDay (0 = off) and the tokens used in the last 24 hours. */
  budgetPerDay: number;
  budgetUsedDay: number;
  /** Prompt tokens the server reported as served from its cache, this session and last request. */
  sessionCachedTokens: number;
  lastCachedTokens: number;
  /** Tool calls running now: with `streaming`, what "in flight" means for the status label. */
  toolsRunning: number;
  /** The cycle ledger's recent records (the ledger view, the away digest). */
  ledger: readonly CycleRecord[];
  /** Messages the user queued that no turn has taken yet, oldest first (`queue_changed`). */
  queued: readonly QueuedMessage[];
  /** Working, resting or waiting for the user's answer (the `activity` event); none yet. */
  activity: Activity | undefined;
}

/** No reply in flight. */
const NO_LIVE = {
  liveReply: '',
  liveParts: { items: [], wait: false },
  liveSettled: [],
  liveEnded: false,
} as const satisfies Partial<AgentViewState>;

export const MAX_TRACES = 50;
/** The ledger records the screen keeps. */
export const MAX_LEDGER = 500;
export const MAX_NOTICES = 100;
/**
 * The tool log keeps this many entries, a few screens of the pane; older ones stay in the
 * history and are read back from it when the user scrolls past them (`toolLogBefore`).
 */
export const MAX_TOOL_LOG = 300;

export function initialViewState(init: Partial<AgentViewState> = {}): AgentViewState {
  return {
    machine: 'THINKING',
    pauseReason: undefined,
    streaming: false,
    turnId: 0,
    liveReasoning: '',
    ...NO_LIVE,
    lastReasoning: '',
    messages: [],
    toolLog: [],
    traces: [],
    approval: undefined,
    notices: [],
    cycle: 0,
    contextTokens: 0,
    sessionTokens: 0,
    nextTurnAt: undefined,
    retryAt: undefined,
    preparing: undefined,
    model: '',
    persona: '',
    lang: 'en',
    contextWindow: 0,
    maxCycles: 0,
    budgetPerHour: 0,
    budgetUsed: 0,
    filesChanged: 0,
    commandsRunning: 0,
    budgetPerDay: 0,
    budgetUsedDay: 0,
    sessionCachedTokens: 0,
    lastCachedTokens: 0,
    toolsRunning: 0,
    ledger: [],
    queued: [],
    activity: undefined,
    ...init,
  };
}

/** A notice appended (the oldest dropped past the cap); ids count up within the store. */
export function addNotice(
  state: Pick<AgentViewState, 'notices'>,
  level: Notice['level'],
  text: string,
  at: number,
): Partial<AgentViewState> {
  const id = (state.notices.at(-1)?.id ?? 0) + 1;
  const notice: Notice = { id, level, text, at };
  return { notices: [...state.notices.slice(-(MAX_NOTICES - 1)), notice] };
}

function upsertTool(log: readonly ToolLogEntry[], entry: ToolLogEntry): ToolLogEntry[] {
  // The entry being finished is almost always the last one: search from the end.
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i]!.callId === entry.callId) {
      const copy = log.slice();
      copy[i] = entry;
      return copy;
    }
  }
  const grown = [...log, entry];
  return grown.length > MAX_TOOL_LOG ? grown.slice(grown.length - MAX_TOOL_LOG) : grown;
}

type Reducer<E extends AgentEvent['type']> = (
  state: AgentViewState,
  event: Extract<AgentEvent, { type: E }>,
  now: number,
) => Partial<AgentViewState>;

type TurnEvent =
  | 'turn_start'
  | 'request_start'
  | 'reasoning_delta'
  | 'message_start'
  | 'message_update'
  | 'message_end'
  | 'usage'
  | 'message_added'
  | 'turn_end';

/** A turn as it streams: live text, usage, saved messages, its trace at the end. */
const reduceTurn: Reducer<TurnEvent> = (state, event) => {
  switch (event.type) {
    case 'turn_start':
      return {
        turnId: event.turnId,
        cycle: event.cycle,
        liveReasoning: '',
        ...NO_LIVE,
        nextTurnAt: undefined,
        retryAt: undefined,
      };
    case 'request_start':
      return { streaming: true, contextTokens: event.promptTokens, retryAt: undefined };
    case 'reasoning_delta':
      return { liveReasoning: state.liveReasoning + event.text };
    case 'message_start':
      return NO_LIVE;
    case 'message_update': {
      // Joining what the turn read, not reading: the parts come with the event.
      const settled = joinParts(state.liveSettled, event.parts.settled);
      return {
        liveReply: state.liveReply + event.delta,
        liveSettled: settled,
        liveParts: { items: joinParts(settled, event.parts.tail), wait: event.parts.wait },
      };
    }
    case 'message_end':
      return { liveParts: event.parts, liveEnded: true };
    case 'usage':
      return {
        contextTokens: event.usage.promptTokens,
        sessionTokens: state.sessionTokens + event.usage.totalTokens,
        sessionCachedTokens: state.sessionCachedTokens + (event.usage.cachedPromptTokens ?? 0),
        lastCachedTokens: event.usage.cachedPromptTokens ?? 0,
      };
    case 'message_added':
      return messageAdded(state, event.message);
    case 'turn_end':
      return {
        ...(event.cycle !== undefined ? { cycle: event.cycle } : {}),
        streaming: false,
        toolsRunning: 0,
        retryAt: undefined,
        // A reply that was only [WAIT] is not stored: nothing of it stays on screen either.
        ...NO_LIVE,
        traces: [...state.traces.slice(-(MAX_TRACES - 1)), event.trace],
      };
  }
};

function messageAdded(state: AgentViewState, m: HistoryMessage): Partial<AgentViewState> {
  const patch: Partial<AgentViewState> = { messages: [...state.messages, m] };
  if (m.role === 'assistant') {
    Object.assign(patch, NO_LIVE);
    patch.liveReasoning = '';
    patch.lastReasoning = m.reasoning ?? state.lastReasoning;
    patch.streaming = false;
  }
  if (m.role === 'user') patch.cycle = 0;
  return patch;
}

/** The tool log and the approval prompt. */
const reduceTools: Reducer<'tool_start' | 'tool_end' | 'approval_request' | 'approval_resolved'> = (
  state,
  event,
) => {
  switch (event.type) {
    case 'tool_start':
      return {
        toolLog: upsertTool(state.toolLog, event.entry),
        toolsRunning: state.toolsRunning + 1,
      };
    case 'tool_end':
      return {
        toolLog: upsertTool(state.toolLog, event.entry),
        toolsRunning: Math.max(0, state.toolsRunning - 1),
      };
    case 'approval_request':
      return { approval: event.request };
    case 'approval_resolved':
      return { approval: undefined };
  }
};

type StatusEvent =
  | 'error'
  | 'retrying'
  | 'notice'
  | 'scheduled'
  | 'preparing'
  | 'settings_changed'
  | 'budget'
  | 'files_changed'
  | 'commands_running'
  | 'queue_changed'
  | 'reminders_due'
  | 'activity';

/** What the status bar and the notices show. */
const reduceStatus: Reducer<StatusEvent> = (state, event, now) => {
  switch (event.type) {
    case 'error':
      return { ...addNotice(state, 'error', event.error.message, now), streaming: false };
    case 'notice':
      return addNotice(state, event.level, event.text, now);
    case 'retrying':
      // The failed try's text goes: the retry streams the reply again.
      return {
        ...addNotice(state, 'warn', event.text, now),
        ...NO_LIVE,
        streaming: false,
        retryAt: now + event.delayMs,
      };
    case 'scheduled':
      return { nextTurnAt: event.at };
    case 'preparing':
      return { preparing: event.what };
    case 'settings_changed':
      return settingsChanged(event);
    case 'budget':
      return {
        budgetUsed: event.usedLastHour,
        ...(event.usedLastDay !== undefined ? { budgetUsedDay: event.usedLastDay } : {}),
      };
    case 'files_changed':
      return { filesChanged: event.count };
    case 'commands_running':
      return { commandsRunning: event.count };
    case 'queue_changed':
      return { queued: event.items.slice() };
    case 'reminders_due':
      // The turn's note shows them to the model; the screen shows the turn.
      return {};
    case 'activity':
      return { activity: event.activity };
  }
};

function settingsChanged(
  event: Extract<AgentEvent, { type: 'settings_changed' }>,
): Partial<AgentViewState> {
  return {
    ...(event.model !== undefined ? { model: event.model } : {}),
    ...(event.persona !== undefined ? { persona: event.persona } : {}),
    ...(event.lang !== undefined ? { lang: event.lang } : {}),
    ...(event.contextWindow !== undefined ? { contextWindow: event.contextWindow } : {}),
    ...(event.maxCycles !== undefined ? { maxCycles: event.maxCycles } : {}),
    ...(event.budgetPerHour !== undefined ? { budgetPerHour: event.budgetPerHour } : {}),
    ...(event.budgetPerDay !== undefined ? { budgetPerDay: event.budgetPerDay } : {}),
  };
}

/**
 * The only place agent events become state. Pure: returns the changed fields (`now` stamps
 * a notice). The machine is not written here: `state_changed` reports a move the store's
 * `dispatch` has already made, so it changes nothing.
 */
export function reduce(
  state: AgentViewState,
  event: AgentEvent,
  now: number,
): Partial<AgentViewState> {
  switch (event.type) {
    case 'state_changed':
      return {};
    case 'history_loaded':
      // A session opened or switched to: everything shown of the last one goes.
      return {
        messages: event.messages.slice(),
        toolLog: toolLogFromHistory(event.messages).slice(-MAX_TOOL_LOG),
        toolsRunning: 0,
        lastReasoning: lastReasoningOf(event.messages),
        liveReasoning: '',
        ...NO_LIVE,
        contextTokens: 0,
        lastCachedTokens: 0,
      };
    case 'messages_replaced':
      return { messages: event.messages.slice() };
    case 'cycle_recorded':
      return { ledger: [...state.ledger.slice(-(MAX_LEDGER - 1)), event.record] };
    case 'ledger_loaded':
      // The session's own counts, from all its records (not only the ones kept on screen).
      return { ledger: event.records.slice(-MAX_LEDGER), ...tokensFromLedger(event.records) };
    case 'turn_start':
    case 'request_start':
    case 'reasoning_delta':
    case 'message_start':
    case 'message_update':
    case 'message_end':
    case 'usage':
    case 'message_added':
    case 'turn_end':
      return reduceTurn(state, event, now);
    case 'tool_start':
    case 'tool_end':
    case 'approval_request':
    case 'approval_resolved':
      return reduceTools(state, event, now);
    default:
      return reduceStatus(state, event, now);
  }
}
