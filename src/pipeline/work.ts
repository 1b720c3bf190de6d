import type { ChatMessage } from '../core/messages.js';
import type { CallOutcome } from './toolRunner.js';
import type { CallItem, ParsedReply } from '../protocol/parser.js';
import type { TurnError } from '../providers/types.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import { TurnSaver } from './saver.js';
import type { TurnDeps, TurnFacts, TurnInput } from './turn.js';

/** What the turn's current step has produced so far; each phase adds its part. */
export interface Work {
  /** RESTORE: the slash command the user typed, handled in COMMAND. */
  command?: string;
  /** COMMAND: the command handled the turn. */
  handled: boolean;
  /** BUILD: the request and its estimated size. */
  messages: ChatMessage[];
  promptTokens: number;
  /** Why BUILD did not send the request (outcome `blocked`). */
  blocked?: string;
  /** RUN: the streamed reply, what of it is shown, its calls and their outcomes. */
  reply: string;
  reasoning: string;
  /** The reply as shown, without calls and the trailing [WAIT]. */
  shown: string;
  items: CallItem[];
  /** RUN's one reading of the reply; the saved message keeps it as its parts. */
  parsed?: ParsedReply;
  wait: boolean;
  outcomes: CallOutcome[];
  /** Tokens the server (or the estimate) reported, and the last prompt's size. */
  gotUsage: boolean;
  totalTokens: number;
  contextTokens?: number;
  error?: TurnError;
  /** RESPOND: what the scheduler learns. */
  report?: TurnReport;
  /** RESPOND: the facts it decided from, which the turn's result reuses (read once a step). */
  facts?: TurnFacts;
}

/** What the turn's steps made together: the turn is one unit for the ledger and /undo. */
export interface Chain {
  /** The step in flight, from 1: each reply with calls starts the next one. */
  step: number;
  /** Every call of the turn, and each with the result the model saw. */
  calls: string[];
  results: string[];
  /** Tokens of all the turn's requests. */
  totalTokens: number;
  /** The id of the turn's first reply with calls: the change journal groups the turn by it. */
  group?: string;
}

/** One turn in flight: its input, its deps, what it made and the one writer of its messages. */
export interface TurnRun {
  turn: TurnInput;
  deps: TurnDeps;
  work: Work;
  chain: Chain;
  saver: TurnSaver;
}

function freshWork(): Work {
  return {
    handled: false,
    messages: [],
    promptTokens: 0,
    reply: '',
    reasoning: '',
    shown: '',
    items: [],
    wait: false,
    outcomes: [],
    gotUsage: false,
    totalTokens: 0,
  };
}

export function startRun(turn: TurnInput, deps: TurnDeps): TurnRun {
  return {
    turn,
    deps,
    saver: new TurnSaver(deps.history, deps.emit),
    work: freshWork(),
    chain: { step: 1, calls: [], results: [], totalTokens: 0 },
  };
}

/**
 * The next step of the turn: what the step made joins the chain, and the work starts fresh
 * (the context size stays: it is the last prompt's, until the next one reports).
 */
export function nextStep(run: TurnRun): void {
  const { contextTokens } = run.work;
  run.work = { ...freshWork(), ...(contextTokens !== undefined ? { contextTokens } : {}) };
  run.saver.nextStep();
  run.chain.step += 1;
}

/** Adds the finished step's calls, results and tokens to the turn's. */
export function joinChain(
  run: TurnRun,
  calls: readonly string[],
  results: readonly string[],
): void {
  run.chain.calls.push(...calls);
  run.chain.results.push(...results);
  run.chain.totalTokens += run.work.totalTokens;
}
