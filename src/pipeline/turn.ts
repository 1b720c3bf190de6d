import { makeMessage, type ChatMessage, type HistoryMessage } from '../core/messages.js';
import type { AgentEvent } from '../agent/events.js';
import { callCap } from '../agent/callCap.js';
import {
  callTextOf,
  runToolCalls,
  type CallOutcome,
  type ToolRunnerDeps,
} from '../agent/toolRunner.js';
import { parseReplyYielding, type CallItem } from '../protocol/parser.js';
import { resultMessage } from '../protocol/resultMessage.js';
import type { Provider, ProviderError, ProviderEvent } from '../providers/types.js';
import { StreamRedactor } from '../core/streamRedact.js';
import type { Workspace } from '../tools/workspace.js';
import {
  nextPhase,
  type Phase,
  type PhaseOutcome,
  type PhaseRecord,
  type TurnOutcomeKind,
  type TurnTrace,
  type TurnTrigger,
} from './phases.js';

/** How the pipeline persists; `append` never throws and reports write failures. */
export interface HistoryPort {
  messages(): readonly HistoryMessage[];
  append(message: HistoryMessage): { ok: true } | { ok: false; error: { message: string } };
}

export interface TurnDeps {
  provider(): Provider;
  history: HistoryPort;
  workspace: Workspace;
  tools: Omit<ToolRunnerDeps, 'emit'>;
  emit(event: AgentEvent): void;
  /** BUILD: the request's messages for this turn and their size in tokens. */
  buildRequest(
    history: readonly HistoryMessage[],
    turn: TurnInput,
  ): { messages: ChatMessage[]; promptTokens: number };
  /** Counts tokens of a text, for usage estimates when the server sends none. */
  countTokens(text: string): number;
  /** COMPACT: shrinks the context when it nears the budget. Optional until memory lands. */
  compact?(signal: AbortSignal): Promise<void>;
  /** COMMAND: runs a slash command; true when it handled the turn. */
  runCommand?(text: string, signal: AbortSignal): Promise<boolean>;
  /**
   * Checked in BUILD before anything is sent, with the request's estimated size: the reason
   * not to send it (a token budget it would exceed), or undefined to go ahead.
   */
  preflight?(promptTokens: number): string | undefined;
}

export interface TurnInput {
  turnId: number;
  trigger: TurnTrigger;
  signal: AbortSignal;
  /** A slash command the user typed, handled in COMMAND. */
  command?: string;
  cycle: number;
}

/** What the agent's policy (RESPOND) needs to decide what happens next. */
export interface TurnResult {
  outcome: TurnOutcomeKind;
  wait: boolean;
  reply: string;
  calls: string[];
  error?: ProviderError | { kind: string; message: string };
  saveFailed?: string;
  /** Why BUILD did not send the request (outcome `blocked`). */
  blocked?: string;
  /** Each call with the result the model saw, to tell a cycle that found something new. */
  results: string[];
  trace: TurnTrace;
}

interface Work {
  reply: string;
  reasoning: string;
  items: CallItem[];
  wait: boolean;
  outcomes: CallOutcome[];
  streamEnded: boolean;
  gotUsage: boolean;
  promptTokens: number;
  error?: TurnResult['error'];
  saveFailed?: string;
  blocked?: string;
  /** The reply as shown, without calls and the trailing [WAIT]. */
  shown: string;
  command: boolean;
  /** The reply's id once it is saved ahead of its tools (the crash record). */
  savedReplyId?: string;
  /** Indices of the calls whose results are saved. */
  savedResults: Set<number>;
}

/**
 * Runs one turn through RESTORE → COMPACT → COMMAND → BUILD → RUN → SAVE → RESPOND → DONE.
 * Never throws: a failure in a phase is recorded, the turn still saves what it produced,
 * and the result carries the error for the scheduler's back-off.
 */
export async function runTurn(turn: TurnInput, deps: TurnDeps): Promise<TurnResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const phases: PhaseRecord[] = [];
  const work: Work = {
    reply: '',
    reasoning: '',
    items: [],
    wait: false,
    outcomes: [],
    streamEnded: false,
    gotUsage: false,
    promptTokens: 0,
    shown: '',
    command: false,
    savedResults: new Set(),
  };
  let messages: ChatMessage[] = [];

  const handlers: Record<Exclude<Phase, 'DONE'>, () => Promise<PhaseOutcome>> = {
    RESTORE: async () => 'next',
    COMPACT: async () => {
      if (deps.compact) await deps.compact(turn.signal);
      return 'next';
    },
    COMMAND: async () => {
      if (turn.command === undefined || !deps.runCommand) return 'next';
      work.command = await deps.runCommand(turn.command, turn.signal);
      return work.command ? 'shortcut' : 'next';
    },
    BUILD: async () => {
      const request = deps.buildRequest(deps.history.messages(), turn);
      messages = request.messages;
      work.promptTokens = request.promptTokens;
      const blocked = deps.preflight?.(request.promptTokens);
      if (blocked !== undefined) {
        work.blocked = blocked;
        return 'shortcut';
      }
      deps.emit({ type: 'request_start', turnId: turn.turnId, promptTokens: request.promptTokens });
      return 'next';
    },
    RUN: async () => {
      await streamReply(turn, deps, messages, work);
      if (work.error) return 'error';
      if (turn.signal.aborted) return 'aborted';
      // Yields while it parses: a hostile reply cannot hold off an interrupt.
      const cap = callCap(deps.tools.maxCallsPerReply);
      const parsed = await parseReplyYielding(work.reply, turn.signal, cap);
      if (parsed === undefined) return 'aborted';
      work.items = parsed.items;
      work.wait = parsed.wait;
      work.shown = parsed.text;
      if (parsed.items.length === 0) return 'next';
      const replyId = saveReplyAhead(deps, work);
      const change = { turn: replyId, trigger: turn.trigger, callIndex: 0 };
      work.outcomes = await runToolCalls(
        parsed.items,
        { workspace: deps.workspace, signal: turn.signal, change },
        turn.turnId,
        {
          ...deps.tools,
          emit: deps.emit,
          onOutcome: (index, outcome, through) => saveResult(deps, work, index, outcome, through),
        },
        parsed.moreCalls,
      );
      return turn.signal.aborted ? 'aborted' : 'next';
    },
    SAVE: async () => {
      save(turn, deps, work);
      return 'next';
    },
    RESPOND: async () => 'next',
  };

  let phase: Phase = 'RESTORE';
  while (phase !== 'DONE') {
    const start = performance.now();
    let outcome: PhaseOutcome;
    let note: string | undefined;
    // Abort checks between phases: an abort skips straight to SAVE (keep what was made).
    if (turn.signal.aborted && phase !== 'SAVE' && phase !== 'RESPOND') {
      outcome = 'aborted';
    } else {
      try {
        outcome = await handlers[phase]();
      } catch (err) {
        outcome = 'error';
        note = err instanceof Error ? err.message : String(err);
        work.error ??= { kind: 'internal', message: `${phase} failed: ${note}` };
      }
    }
    phases.push({
      phase,
      startMs: Math.round(start - t0),
      durationMs: Math.round(performance.now() - start),
      outcome,
      ...(note ? { note } : {}),
    });
    phase = nextPhase(phase, outcome);
  }

  const outcome: TurnOutcomeKind = work.command
    ? 'command'
    : work.blocked !== undefined
      ? 'blocked'
      : work.error
        ? 'error'
        : turn.signal.aborted
          ? 'aborted'
          : 'ok';
  const trace: TurnTrace = {
    turnId: turn.turnId,
    trigger: turn.trigger,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    phases,
    outcome,
  };
  return {
    outcome,
    wait: work.wait && outcome === 'ok',
    reply: work.reply,
    calls: work.items.map((i) =>
      i.type === 'call' ? `${i.name}(${JSON.stringify(i.args)})` : i.raw,
    ),
    ...(work.error ? { error: work.error } : {}),
    ...(work.saveFailed ? { saveFailed: work.saveFailed } : {}),
    ...(work.blocked !== undefined ? { blocked: work.blocked } : {}),
    results: work.outcomes.map((o) => `${o.call}\n${o.ok ? 'ok' : 'error'}\n${o.body}`),
    trace,
  };
}

async function streamReply(
  turn: TurnInput,
  deps: TurnDeps,
  messages: ChatMessage[],
  work: Work,
): Promise<void> {
  // The model's own text is redacted before it is shown, stored or exported.
  const streams = modelTextStreams(turn, deps, work);
  try {
    for await (const ev of deps.provider().stream({ messages, signal: turn.signal })) {
      if (ev.type === 'reasoning_delta') streams.reasoning(ev.text);
      else if (ev.type === 'text_delta') streams.text(ev.text);
      else {
        // The tail held back for redaction belongs to the reply before usage is estimated.
        if (ev.type === 'done') streams.flush();
        streamEvent(ev, turn, deps, work);
      }
    }
  } finally {
    streams.flush();
  }
}

/** Sinks for the model's reasoning and text: redacted (across deltas), kept and emitted. */
function modelTextStreams(
  turn: TurnInput,
  deps: TurnDeps,
  work: Work,
): { reasoning(t: string): void; text(t: string): void; flush(): void } {
  const redactor = deps.tools.safety?.redactor;
  const reasoning = redactor ? new StreamRedactor(redactor) : undefined;
  const text = redactor ? new StreamRedactor(redactor) : undefined;
  const addReasoning = (t: string): void => {
    if (t === '') return;
    work.reasoning += t;
    deps.emit({ type: 'reasoning_delta', turnId: turn.turnId, text: t });
  };
  const addText = (t: string): void => {
    if (t === '') return;
    work.reply += t;
    deps.emit({ type: 'text_delta', turnId: turn.turnId, text: t });
  };
  return {
    reasoning: (t) => addReasoning(reasoning ? reasoning.push(t) : t),
    text: (t) => addText(text ? text.push(t) : t),
    flush: () => {
      if (reasoning) addReasoning(reasoning.flush());
      if (text) addText(text.flush());
    },
  };
}

/** Usage and the end of the stream (the deltas go through {@link modelTextStreams}). */
function streamEvent(ev: ProviderEvent, turn: TurnInput, deps: TurnDeps, work: Work): void {
  switch (ev.type) {
    case 'usage':
      work.gotUsage = true;
      deps.emit({ type: 'usage', turnId: turn.turnId, usage: ev.usage, estimated: false });
      break;
    case 'done':
      work.streamEnded = true;
      if (!work.gotUsage) {
        // No usage from the server: account an estimate, so budgets still hold.
        const completionTokens = deps.countTokens(work.reasoning + work.reply);
        const usage = {
          promptTokens: work.promptTokens,
          completionTokens,
          totalTokens: work.promptTokens + completionTokens,
        };
        deps.emit({ type: 'usage', turnId: turn.turnId, usage, estimated: true });
      }
      if (ev.reason === 'error')
        work.error = ev.error ?? { kind: 'unknown', message: 'the model request failed' };
      break;
  }
}

/** SAVE: the reply (marked interrupted when cut short) and the results, each persisted. */
function save(turn: TurnInput, deps: TurnDeps, work: Work): void {
  if (work.command) return;
  // Who cut the reply short matters to the model: the user, or a failure.
  const interrupted = turn.signal.aborted;
  const failed = !interrupted && work.error !== undefined;
  if (work.savedReplyId !== undefined) {
    // Calls the interrupt kept from running still get a result, so the record is complete
    // and the next start does not mistake them for calls a crash cut off.
    for (const [index, item] of work.items.entries()) {
      if (work.savedResults.has(index)) continue;
      const body = 'aborted: not run, the turn was interrupted before this call';
      saveResult(deps, work, index, { call: callTextOf(item), ok: false, body, truncatedChars: 0 });
    }
    return;
  }
  // A reply that is only [WAIT] ends the turn silently: nothing empty is shown or stored.
  const onlyWait = work.wait && work.shown === '' && work.items.length === 0;
  if ((work.reply || work.reasoning) && !onlyWait) {
    const assistant = makeMessage('assistant', work.reply, {
      ...(work.reasoning ? { reasoning: work.reasoning } : {}),
      ...(interrupted ? { interrupted: true } : {}),
      ...(failed ? { failed: true } : {}),
      ...(turn.trigger === 'timer' ? { cycle: turn.cycle } : {}),
    });
    persist(deps, assistant, work);
  }
}

/**
 * The crash record's first half: the reply, with the number of its calls, is saved before
 * its first tool runs. Returns its id, which the change journal groups the calls' changes by.
 */
function saveReplyAhead(deps: TurnDeps, work: Work): string {
  const assistant = makeMessage('assistant', work.reply, {
    ...(work.reasoning ? { reasoning: work.reasoning } : {}),
    calls: work.items.length,
  });
  persist(deps, assistant, work);
  work.savedReplyId = assistant.id;
  return assistant.id;
}

/** The second half: each result is saved as its call finishes, with the call's index. */
function saveResult(
  deps: TurnDeps,
  work: Work,
  index: number,
  outcome: CallOutcome,
  through = index,
): void {
  for (let i = index; i <= through; i++) work.savedResults.add(i);
  persist(deps, resultMessage(outcome, index), work);
}

function persist(deps: TurnDeps, message: HistoryMessage, work: Work): void {
  const res = deps.history.append(message);
  // The message is still shown and kept in memory; the agent pauses on a write failure.
  if (!res.ok) work.saveFailed = res.error.message;
  deps.emit({ type: 'message_added', message });
}
