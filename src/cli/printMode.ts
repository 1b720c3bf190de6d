import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import { stripTerminalControls, TerminalTextFilter } from '../safety/terminalFilter.js';
import {
  createProgressWriter,
  createReplyWriter,
  type ProgressWriter,
  type ReplyWriter,
} from './printWriters.js';

export interface PrintModeOptions {
  prompt: string;
  json: boolean;
  /** Stop after this many turns. */
  maxCycles: number;
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface PrintModeResult {
  exitCode: number;
  turns: number;
  reason: 'wait' | 'max-cycles' | 'paused' | 'interrupted' | 'exit';
}

/** A print-mode run in progress. */
export interface PrintRun {
  done: Promise<PrintModeResult>;
  /** Ctrl+C, SIGTERM: aborts the request in flight (the connection closes); exit code 130. */
  cancel(): void;
  /** The root's quit (`/exit`): the run ends with exit code 0. */
  exit(): void;
}

/**
 * Headless print mode: drives the same agent as the screen and prints its events. Text mode
 * writes the model's reply, and only that, to stdout (without the `[WAIT]` marker, ending
 * with a newline), so `cogito -p "…" > answer.md` captures the answer; reasoning (dim on a
 * terminal), tool progress and notices go to stderr. `--json` writes one JSON event per
 * line to stdout. Approval requests are declined, since nobody is there to answer; the
 * model sees why.
 */
export function runPrintMode(agent: Agent, opts: PrintModeOptions): PrintRun {
  const reply = createReplyWriter(opts.out);
  const progress = createProgressWriter(opts.err);
  let turns = 0;
  let finish!: (r: PrintModeResult) => void;
  const done = new Promise<PrintModeResult>((resolve) => (finish = resolve));
  let finished = false;

  const end = (reason: PrintModeResult['reason'], exitCode: number): void => {
    if (finished) return;
    finished = true;
    unsubscribe();
    void agent.stop().then(() => {
      if (!opts.json) {
        reply.close();
        progress.close();
      }
      finish({ exitCode, turns, reason });
    });
  };

  const print = opts.json
    ? (e: AgentEvent) => opts.out.write(`${JSON.stringify(e)}\n`)
    : createTextPrinter(reply, progress);
  const unsubscribe = agent.subscribe((e) => {
    print(e);
    if (e.type === 'approval_request') {
      const text = `${e.request.call} needs approval, declined in print mode (set approval.${e.request.kind} to "auto" in config.json to allow it)`;
      if (!opts.json) progress.line(`note: ${stripTerminalControls(text)}`);
      queueMicrotask(() => agent.answerApproval('no'));
    }
    if (e.type === 'turn_end') {
      turns += 1;
      const stop = stopAfterTurn(agent, turns, opts.maxCycles, e.outcome);
      if (stop) end(...stop);
    }
  });

  // `cogito -p … | head`: a closed pipe ends the run quietly instead of crashing.
  opts.out.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      agent.interrupt();
      end('interrupted', 0);
    }
  });

  agent.start();
  agent.submit(opts.prompt);
  return {
    done,
    cancel: () => {
      agent.interrupt();
      end('interrupted', 130);
    },
    exit: () => end('exit', 0),
  };
}

/** Whether the run is over after this turn: why, and the exit code. */
function stopAfterTurn(
  agent: Agent,
  turns: number,
  maxCycles: number,
  outcome: string,
): [PrintModeResult['reason'], number] | undefined {
  // The agent settles the machine before it reports turn_end.
  const state = agent.state;
  if (state === 'AWAITING_INPUT') return ['wait', 0];
  if (state === 'PAUSED') return ['paused', agent.store.getState().pauseReason ? 1 : 0];
  if (turns >= maxCycles) return ['max-cycles', outcome === 'error' ? 1 : 0];
  return undefined;
}

/**
 * Text mode's printer. Model and tool text may carry escape sequences (clipboard writes,
 * hidden links, cursor moves): plain-text output never passes them to the terminal
 * (`--json` stays exact).
 */
function createTextPrinter(reply: ReplyWriter, progress: ProgressWriter): (e: AgentEvent) => void {
  const reasoningFilter = new TerminalTextFilter();
  const replyFilter = new TerminalTextFilter();
  const clean = stripTerminalControls;
  return (e) => {
    switch (e.type) {
      case 'reasoning_delta':
        progress.reasoning(reasoningFilter.push(e.text));
        break;
      case 'text_delta':
        reply.write(replyFilter.push(e.text));
        break;
      case 'tool_end': {
        const mark = e.entry.status === 'ok' ? '✓' : '✗';
        progress.line(`${mark} ${clean(e.entry.call)} → ${clean(e.entry.summary ?? '')}`);
        break;
      }
      // Each reply of a turn's tool chain, and each turn, starts on its own line.
      case 'request_start':
      case 'turn_end':
        reply.endReply();
        break;
      case 'error':
        progress.line(`error: ${clean(e.error.message)}`);
        break;
      case 'notice':
        progress.line(`${e.level === 'warn' ? 'warning' : 'note'}: ${clean(e.text)}`);
        break;
      default:
        break;
    }
  };
}
