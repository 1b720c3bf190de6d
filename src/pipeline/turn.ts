import type { ChatMessage, FunctionTool, HistoryMessage } from '../core/messages.js';
import type { AgentEvent } from '../api/events.js';
import type { ToolRunnerDeps } from './toolRunner.js';
import type { Provider, TurnError } from '../providers/types.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import type { Workspace } from '../tools/workspace.js';
import { factsOf, type StepValues } from './facts.js';
import * as handlers from './phaseHandlers.js';
import {
  traceOutcome,
  type Handled,
  type HandlerOutcome,
  type TurnContext,
} from './phaseHandlers.js';
import { nextPhase } from './phases.js';
import { TurnSaver } from './saver.js';
import type { Phase, PhaseRecord, TurnOutcomeKind, TurnTrace, TurnTrigger } from '../api/trace.js';
import type { HistoryPort } from './saver.js';

export type { HistoryPort } from './saver.js';

/** The user's input RESTORE takes for a turn: one slash command, or the messages to answer. */
export interface TakenInput {
  command?: string;
  messages: readonly string[];
}

export interface TurnDeps {
  provider(): Provider;
  history: HistoryPort;
  workspace: Workspace;
  tools: Omit<ToolRunnerDeps, 'emit'>;
  emit(event: AgentEvent): void;
  /**
   * RESTORE: finishes what the last run left unfinished (a crash record) before anything is
   * built. A throw fails this turn; the next turn tries again.
   */
  recover?(): Promise<void>;
  /** RESTORE: the user's input queued for this turn (none: an autonomous turn). */
  takeInput?(): TakenInput | undefined;
  /**
   * BUILD, before the request is built: waits (bounded, abortable) for tools that are still
   * connecting, so the request offers them. Resolves at once once they have.
   */
  ready?(signal: AbortSignal): Promise<void>;
  /**
   * BUILD: the request's messages for this step of the turn (from 1; a later step follows
   * the results of the step before) and their size in tokens.
   */
  buildRequest(
    history: readonly HistoryMessage[],
    turn: TurnInput,
    step: number,
  ): { messages: ChatMessage[]; promptTokens: number; tools?: readonly FunctionTool[] };
  /** Counts tokens of a text, for usage estimates when the server sends none. */
  countTokens(text: string): number;
  /** COMPACT: shrinks the context when it nears the budget (absent: never compressed). */
  compact?(signal: AbortSignal): Promise<void>;
  /**
   * COMMAND: runs the slash command RESTORE took. A command always handles its turn: no
   * model call follows, and the turn goes to DONE (also when the command stopped it).
   */
  runCommand?(text: string, signal: AbortSignal): Promise<void>;
  /**
   * Checked in BUILD before anything is sent, with the request's estimated size: the reason
   * not to send it (a token budget it would exceed), or undefined to go ahead.
   */
  preflight?(promptTokens: number): string | undefined;
  /**
   * RESPOND, after each step: the agent's policy decides what follows and moves the machine
   * (absent: one step per turn, and a failure is an error outcome, nothing else).
   */
  respond?(facts: TurnFacts): StepVerdict;
}

/** What RESPOND decided after a step. */
export interface StepVerdict {
  /** What the scheduler learns if the turn ends here. */
  report: TurnReport;
  /** The turn goes on: its next request carries the results of this step's calls, at once. */
  more: boolean;
}

export interface TurnInput {
  turnId: number;
  trigger: TurnTrigger;
  signal: AbortSignal;
  cycle: number;
}

/**
 * What RESPOND decides from: how the step ended and what it produced. In the turn's result
 * (`TurnResult`), `calls`, `results` and `tokens.total` cover all of the turn's steps.
 */
export interface TurnFacts {
  turnId: number;
  /** The step (request) of the turn, from 1. */
  step: number;
  outcome: TurnOutcomeKind;
  wait: boolean;
  reply: string;
  calls: string[];
  error?: TurnError;
  saveFailed?: string;
  /** Why BUILD did not send the request (outcome `blocked`). */
  blocked?: string;
  /** Each call with the result the model saw, to tell a cycle that found something new. */
  results: string[];
  /**
   * The tokens this step's request used (as reported, or estimated), and how full the
   * context is: the last prompt's size, from this step or an earlier one (absent: nothing
   * was sent).
   */
  tokens: { total: number; context?: number };
}

/** The finished turn: its facts, its trace, and what RESPOND told the scheduler. */
export interface TurnResult extends TurnFacts {
  trace: TurnTrace;
  report: TurnReport;
}

/** The whole turn as the walker keeps it: the step in flight and what the steps before made. */
interface Walk {
  ctx: TurnContext;
  /** The step in flight: each reply with calls starts the next one. */
  s: StepValues;
  /** Every call of the turn, and each with the result the model saw. */
  calls: string[];
  results: string[];
  /** Tokens of all the turn's requests. */
  totalTokens: number;
  /** The id of the turn's first reply with calls: the change journal groups the turn by it. */
  group?: string;
  /** The last prompt's size: it stays across steps until the next request reports. */
  context?: number;
  /** The last step's facts and RESPOND's verdict on them. */
  facts?: TurnFacts;
  verdict?: StepVerdict;
}

/**
 * Runs one turn through RESTORE → COMPACT → COMMAND → BUILD → RUN → SAVE → RESPOND → DONE,
 * from RESPOND back to COMPACT for each further step of its tool chain. Each phase does its
 * work in its handler (phaseHandlers.ts), so the trace is true.
 * Never throws: a failure in a phase is recorded, the turn still saves what it produced,
 * and the result carries the error for the scheduler's back-off.
 */
export async function runTurn(turn: TurnInput, deps: TurnDeps): Promise<TurnResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const w: Walk = {
    ctx: { turn, deps, saver: new TurnSaver(deps.history, deps.emit) },
    s: { step: 1, handled: false },
    calls: [],
    results: [],
    totalTokens: 0,
  };
  const phases = await walkPhases(w, t0);
  const { facts, report } = endOf(w);
  const trace: TurnTrace = {
    turnId: turn.turnId,
    trigger: turn.trigger,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    phases,
    steps: w.s.step,
    outcome: facts.outcome,
  };
  return {
    ...facts,
    // The turn as a whole: every step's calls, results and tokens.
    calls: w.calls,
    results: w.results,
    tokens: { ...facts.tokens, total: w.totalTokens },
    trace,
    report,
  };
}

/**
 * How the turn ends, decided in one place: RESPOND's verdict on its last step. A turn that
 * has none (COMMAND handled it, or RESPOND itself failed) failed only if it erred.
 */
function endOf(w: Walk): { facts: TurnFacts; report: TurnReport } {
  const facts = w.facts ?? factsOf(w.ctx.turn, w.s, w.ctx.saver.failed, w.context);
  return { facts, report: w.verdict?.report ?? { failed: facts.outcome === 'error' } };
}

/** Walks the phase table from RESTORE to DONE, recording each phase's time and outcome. */
async function walkPhases(w: Walk, t0: number): Promise<PhaseRecord[]> {
  const phases: PhaseRecord[] = [];
  let phase: Phase = 'RESTORE';
  while (phase !== 'DONE') {
    const start = performance.now();
    const step = w.s.step;
    let outcome: HandlerOutcome;
    let note: string | undefined;
    // Abort checks between phases: an abort skips straight to SAVE (keep what was made).
    if (w.ctx.turn.signal.aborted && phase !== 'SAVE' && phase !== 'RESPOND') {
      outcome = 'aborted';
    } else {
      try {
        ({ outcome, note } = await runPhase(phase, w));
      } catch (err) {
        outcome = 'error';
        note = err instanceof Error ? err.message : String(err);
      }
      if (note !== undefined)
        w.s.error ??= { kind: 'internal', message: `${phase} failed: ${note}` };
    }
    phases.push({
      phase,
      step,
      startMs: Math.round(start - t0),
      durationMs: Math.round(performance.now() - start),
      outcome: traceOutcome(outcome),
      ...(note ? { note } : {}),
    });
    phase = nextPhase(phase, traceOutcome(outcome));
    // RESPOND sent the turn round again: a fresh step, whose reply and results are new ones.
    if (outcome === 'step') {
      w.s = { step: step + 1, handled: false };
      w.ctx.saver.nextStep();
    }
  }
  return phases;
}

/** Runs one phase's handler with the values of the phases before, and keeps what it returns. */
async function runPhase(phase: Exclude<Phase, 'DONE'>, w: Walk): Promise<Handled<unknown>> {
  const { ctx, s } = w;
  switch (phase) {
    case 'RESTORE': {
      const r = await handlers.restore(ctx);
      if (r.value !== undefined) s.command = r.value;
      return r;
    }
    case 'COMPACT':
      return handlers.compact(ctx);
    case 'COMMAND': {
      const r = await handlers.command(ctx, s.command);
      s.handled = r.outcome === 'handled';
      return r;
    }
    case 'BUILD': {
      const r = await handlers.build(ctx, s.step);
      if (r.value) s.built = r.value;
      // A request sent is the context's size until the server reports its own count.
      if (r.outcome === 'next' && r.value) w.context = r.value.promptTokens;
      return r;
    }
    case 'RUN':
      return runRun(w);
    case 'SAVE':
      return handlers.save(ctx, s.ran, s.error !== undefined);
    case 'RESPOND':
      return runRespond(w);
  }
}

async function runRun(w: Walk): Promise<Handled<unknown>> {
  const { s } = w;
  // The table reaches RUN only from a BUILD that sent its request.
  if (!s.built) throw new Error('RUN has no request from BUILD');
  const r = await handlers.run(w.ctx, s.built, w.group);
  s.ran = r.value;
  if (r.value.group !== undefined) w.group = r.value.group;
  if (r.value.contextTokens !== undefined) w.context = r.value.contextTokens;
  if (r.value.error) s.error = r.value.error;
  return r;
}

/** RESPOND: the step's facts join the turn's, then the agent's policy gives its verdict. */
async function runRespond(w: Walk): Promise<Handled<unknown>> {
  const { ctx, s } = w;
  const facts = factsOf(ctx.turn, s, ctx.saver.failed, w.context);
  w.calls.push(...facts.calls);
  w.results.push(...facts.results);
  w.totalTokens += facts.tokens.total;
  const r = await handlers.respond(ctx, facts);
  w.facts = facts;
  w.verdict = r.value;
  return r;
}
