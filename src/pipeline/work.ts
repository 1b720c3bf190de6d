import type { ChatMessage } from '../core/messages.js';
import type { CallOutcome } from '../agent/toolRunner.js';
import type { CallItem } from '../protocol/parser.js';
import type { ProviderError } from '../providers/types.js';
import type { TurnReport } from '../scheduler/scheduler.js';
import { TurnSaver } from './saver.js';
import type { TurnDeps, TurnInput } from './turn.js';

/** What a turn has produced so far; each phase adds its part. */
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
  wait: boolean;
  outcomes: CallOutcome[];
  /** Tokens the server (or the estimate) reported, and the last prompt's size. */
  gotUsage: boolean;
  totalTokens: number;
  contextTokens?: number;
  error?: ProviderError | { kind: string; message: string };
  /** RESPOND: what the scheduler learns. */
  report?: TurnReport;
}

/** One turn in flight: its input, its deps, what it made and the one writer of its messages. */
export interface TurnRun {
  turn: TurnInput;
  deps: TurnDeps;
  work: Work;
  saver: TurnSaver;
}

export function startRun(turn: TurnInput, deps: TurnDeps): TurnRun {
  return {
    turn,
    deps,
    saver: new TurnSaver(deps.history, deps.emit),
    work: {
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
    },
  };
}
