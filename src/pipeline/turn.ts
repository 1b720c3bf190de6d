import { makeMessage, type ChatMessage, type HistoryMessage } from '../core/messages.js';
import type { AgentEvent } from '../agent/events.js';
import { runToolCalls, type CallOutcome, type ToolRunnerDeps } from '../agent/toolRunner.js';
import { parseReply, type CallItem } from '../protocol/parser.js';
import { formatResultsMessage } from '../protocol/format.js';
import type { Provider, ProviderError } from '../providers/types.js';
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
  command: boolean;
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
    command: false,
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
      deps.emit({ type: 'request_start', turnId: turn.turnId, promptTokens: request.promptTokens });
      return 'next';
    },
    RUN: async () => {
      await streamReply(turn, deps, messages, work);
      if (work.error) return 'error';
      if (turn.signal.aborted) return 'aborted';
      const parsed = parseReply(work.reply);
      work.items = parsed.items;
      work.wait = parsed.wait;
      work.outcomes = await runToolCalls(
        parsed.items,
        { workspace: deps.workspace, signal: turn.signal },
        turn.turnId,
        {
          ...deps.tools,
          emit: deps.emit,
        },
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
    trace,
  };
}

async function streamReply(
  turn: TurnInput,
  deps: TurnDeps,
  messages: ChatMessage[],
  work: Work,
): Promise<void> {
  for await (const ev of deps.provider().stream({ messages, signal: turn.signal })) {
    switch (ev.type) {
      case 'reasoning_delta':
        work.reasoning += ev.text;
        deps.emit({ type: 'reasoning_delta', turnId: turn.turnId, text: ev.text });
        break;
      case 'text_delta':
        work.reply += ev.text;
        deps.emit({ type: 'text_delta', turnId: turn.turnId, text: ev.text });
        break;
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
}

/** SAVE: the reply (marked interrupted when cut short) and the results, each persisted. */
function save(turn: TurnInput, deps: TurnDeps, work: Work): void {
  if (work.command) return;
  // Who cut the reply short matters to the model: the user, or a failure.
  const interrupted = turn.signal.aborted;
  const failed = !interrupted && work.error !== undefined;
  if (work.reply || work.reasoning) {
    const assistant = makeMessage('assistant', work.reply, {
      ...(work.reasoning ? { reasoning: work.reasoning } : {}),
      ...(interrupted ? { interrupted: true } : {}),
      ...(failed ? { failed: true } : {}),
      ...(turn.trigger === 'timer' ? { cycle: turn.cycle } : {}),
    });
    persist(deps, assistant, work);
  }
  if (work.outcomes.length > 0) {
    persist(deps, makeMessage('tool', formatResultsMessage(work.outcomes)), work);
  }
}

function persist(deps: TurnDeps, message: HistoryMessage, work: Work): void {
  const res = deps.history.append(message);
  // The message is still shown and kept in memory; the agent pauses on a write failure.
  if (!res.ok) work.saveFailed = res.error.message;
  deps.emit({ type: 'message_added', message });
}
