import type { ChatMessage, HistoryMessage } from '../core/messages.js';
import type { AgentEvent } from '../api/events.js';
import type { ToolRunnerDeps } from './toolRunner.js';
import type { Provider, TurnError } from '../providers/types.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import type { Workspace } from '../tools/workspace.js';
import { factsOf } from './facts.js';
import { PHASE_HANDLERS } from './phaseHandlers.js';
import { nextPhase } from './phases.js';
import type {
  Phase,
  PhaseOutcome,
  PhaseRecord,
  TurnOutcomeKind,
  TurnTrace,
  TurnTrigger,
} from '../api/trace.js';
import type { HistoryPort } from './saver.js';
import { startRun, type TurnRun } from './work.js';

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
  ): { messages: ChatMessage[]; promptTokens: number };
  /** Counts tokens of a text, for usage estimates when the server sends none. */
  countTokens(text: string): number;
  /** COMPACT: shrinks the context when it nears the budget (absent: never compressed). */
  compact?(signal: AbortSignal): Promise<void>;
  /** COMMAND: runs a slash command; true when it handled the turn. */
  runCommand?(text: string, signal: AbortSignal): Promise<boolean>;
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
   * The tokens this turn's request used (as reported, or estimated), and how full the
   * context is: the last prompt's size (absent: nothing was sent).
   */
  tokens: { total: number; context?: number };
}

/** The finished turn: its facts, its trace, and what RESPOND told the scheduler. */
export interface TurnResult extends TurnFacts {
  trace: TurnTrace;
  report: TurnReport;
}

/**
 * Runs one turn through RESTORE → COMPACT → COMMAND → BUILD → RUN → SAVE → RESPOND → DONE,
 * from RESPOND back to COMPACT for each further step of its tool chain. Each phase does its
 * work in its handler ({@link PHASE_HANDLERS}), so the trace is true.
 * Never throws: a failure in a phase is recorded, the turn still saves what it produced,
 * and the result carries the error for the scheduler's back-off.
 */
export async function runTurn(turn: TurnInput, deps: TurnDeps): Promise<TurnResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const run = startRun(turn, deps);
  const phases = await walkPhases(run, t0);
  const { chain } = run;
  // RESPOND's facts of the last step; a turn COMMAND handled never reached RESPOND.
  const facts = run.work.facts ?? factsOf(run);
  const trace: TurnTrace = {
    turnId: turn.turnId,
    trigger: turn.trigger,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    phases,
    steps: chain.step,
    outcome: facts.outcome,
  };
  return {
    ...facts,
    // The turn as a whole: every step's calls, results and tokens.
    calls: chain.calls,
    results: chain.results,
    tokens: { ...facts.tokens, total: chain.totalTokens },
    trace,
    report: run.work.report ?? { failed: facts.outcome === 'error' },
  };
}

/** Walks the phase table from RESTORE to DONE, recording each phase's time and outcome. */
async function walkPhases(run: TurnRun, t0: number): Promise<PhaseRecord[]> {
  const phases: PhaseRecord[] = [];
  let phase: Phase = 'RESTORE';
  while (phase !== 'DONE') {
    const start = performance.now();
    const step = run.chain.step;
    let outcome: PhaseOutcome;
    let note: string | undefined;
    // Abort checks between phases: an abort skips straight to SAVE (keep what was made).
    if (run.turn.signal.aborted && phase !== 'SAVE' && phase !== 'RESPOND') {
      outcome = 'aborted';
    } else {
      try {
        outcome = await PHASE_HANDLERS[phase](run);
      } catch (err) {
        outcome = 'error';
        note = err instanceof Error ? err.message : String(err);
        run.work.error ??= { kind: 'internal', message: `${phase} failed: ${note}` };
      }
    }
    phases.push({
      phase,
      step,
      startMs: Math.round(start - t0),
      durationMs: Math.round(performance.now() - start),
      outcome,
      ...(note ? { note } : {}),
    });
    phase = nextPhase(phase, outcome);
  }
  return phases;
}
