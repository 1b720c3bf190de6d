import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../api/events.js';
import { stripTerminalControls, TerminalTextFilter } from '../safety/terminalFilter.js';
import {
  createAnswerWriter,
  createProgressWriter,
  type AnswerWriter,
  type ProgressWriter,
} from './printWriters.js';

export interface PrintModeOptions {
  prompt: string;
  json: boolean;
  /** `--verbose`: reasoning and the narration of replies that called tools, on stderr. */
  verbose?: boolean;
  /** `--approve`: the kinds this run lets through; an ask of one of them asks every time. */
  approved?: readonly string[];
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
 * writes the final answer, and only that, to stdout when the run ends: the last reply that
 * called no tools, without the `[WAIT]` marker, ending with a newline, so
 * `cogito -p "…" > answer.md` captures the answer. Tool progress, notices and errors go to
 * stderr; with `--verbose` also the reasoning (dim on a terminal) and the narration of the
 * replies that called tools. An interrupted run (Ctrl+C) writes no answer. `--json` writes
 * one JSON event per line to stdout. Approval requests are declined, since nobody is there
 * to answer; the model sees why.
 */
export function runPrintMode(agent: Agent, opts: PrintModeOptions): PrintRun {
  const reply = createAnswerWriter(opts.out);
  const progress = createProgressWriter(opts.err);
  let turns = 0;
  /** How the last turn ended: a failed one leaves no answer for another reason. */
  let lastOutcome = '';
  let finish!: (r: PrintModeResult) => void;
  const done = new Promise<PrintModeResult>((resolve) => (finish = resolve));
  let finished = false;

  const end = (reason: PrintModeResult['reason'], exitCode: number): void => {
    if (finished) return;
    finished = true;
    unsubscribe();
    void agent.stop().then(() => {
      if (!opts.json) closeText(reply, progress, reason, lastOutcome);
      finish({ exitCode, turns, reason });
    });
  };

  const print = opts.json
    ? (e: AgentEvent) => opts.out.write(`${JSON.stringify(e)}\n`)
    : createTextPrinter(reply, progress, opts.verbose === true);
  /** The run's last error was a rejected key: a configuration problem, exit 2 (README). */
  let rejectedKey = false;
  const unsubscribe = agent.subscribe((e) => {
    print(e);
    if (e.type === 'error') rejectedKey = e.error.kind === 'auth';
    if (e.type === 'approval_request') {
      const text = declineNote(e.request.call, e.request.kind, opts.approved ?? []);
      if (!opts.json) progress.line(`note: ${stripTerminalControls(text)}`);
      const { id } = e.request;
      queueMicrotask(() => agent.send({ type: 'answer_approval', answer: 'no', id }));
    }
    if (e.type === 'turn_end') {
      turns += 1;
      lastOutcome = e.outcome;
      const stop = stopAfterTurn(agent, turns, opts.maxCycles, e.outcome);
      if (stop && stop[1] === 1 && rejectedKey) stop[1] = 2;
      if (stop) end(...stop);
    }
  });

  // `cogito -p … | head`: a closed pipe ends the run quietly instead of crashing.
  opts.out.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      agent.send({ type: 'interrupt' });
      end('interrupted', 0);
    }
  });

  agent.start();
  agent.send({ type: 'submit', text: opts.prompt });
  return {
    done,
    cancel: () => {
      agent.send({ type: 'interrupt' });
      end('interrupted', 130);
    },
    exit: () => end('exit', 0),
  };
}

/**
 * Why an approval was declined and what would allow it. A kind the run already approved
 * asked anyway: a protected place, an executable or data leaving the machine, which only a
 * person at the screen may allow, so no flag is offered.
 */
function declineNote(call: string, kind: string, approved: readonly string[]): string {
  if (approved.includes(kind)) {
    return `${call} needs approval every time (a protected place, an executable or data leaving the machine), declined in print mode; --approve does not cover it: run it in the app to answer the card`;
  }
  return `${call} needs approval, declined in print mode (allow it for this run with --approve ${kind}, or set approval.${kind} to "auto" in config.json)`;
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
function createTextPrinter(
  reply: AnswerWriter,
  progress: ProgressWriter,
  verbose: boolean,
): (e: AgentEvent) => void {
  const reasoningFilter = new TerminalTextFilter();
  const narrationFilter = new TerminalTextFilter();
  const clean = stripTerminalControls;
  /** The current reply called tools: its text so far is narration, and so is the rest. */
  let narrating = false;
  /** The last error printed: the pause it causes repeats it, and is said once (issue 33). */
  let lastError: string | undefined;
  return (e) => {
    switch (e.type) {
      case 'reasoning_delta':
        if (verbose) progress.reasoning(reasoningFilter.push(e.text));
        break;
      case 'request_start':
        reply.startReply();
        narrating = false;
        break;
      case 'message_update':
        reply.write(e.delta);
        if (narrating && verbose) progress.narration(narrationFilter.push(reply.takeNarration()));
        break;
      case 'tool_start': {
        const text = reply.takeNarration();
        if (!narrating && verbose) progress.narration(narrationFilter.push(text));
        narrating = true;
        break;
      }
      case 'tool_end': {
        const mark = e.entry.status === 'ok' ? '✓' : '✗';
        progress.line(`${mark} ${clean(e.entry.call)} → ${clean(e.entry.summary ?? '')}`);
        break;
      }
      case 'error':
        // A reply an error cut off is no answer (it is kept in the session, marked failed).
        reply.dropReply();
        lastError = e.error.message;
        progress.line(`error: ${clean(e.error.message)}`);
        break;
      case 'retrying':
        // The failed try's text is no answer: the retry streams the reply again.
        reply.dropReply();
        narrating = false;
        progress.line(`warning: ${clean(e.text)}`);
        break;
      case 'notice':
        {
          const text = withoutRepeat(e.text, lastError);
          if (text !== '')
            progress.line(`${e.level === 'warn' ? 'warning' : 'note'}: ${clean(text)}`);
          break;
        }
        break;
      default:
        break;
    }
  };
}

/** The end of a text-mode run: the answer on stdout, or a note on stderr saying why none. */
function closeText(
  reply: AnswerWriter,
  progress: ProgressWriter,
  reason: PrintModeResult['reason'],
  lastOutcome: string,
): void {
  progress.close();
  if (reason === 'interrupted') return;
  // Cut off mid-chain: say why stdout is empty (a paused run has said why on stderr already).
  // A turn that failed has said why too: no reply came, so none called tools.
  if (!reply.hasAnswer() && reason === 'max-cycles' && lastOutcome !== 'error') {
    progress.line(
      'note: no answer on stdout: the last reply still called tools when --max-cycles ran out; raise it to let it finish',
    );
  }
  reply.close();
}

/**
 * A pause notice that ends with the error just printed says it once: "paused after 3 failed
 * requests in a row (maxConsecutiveFailures)" keeps its reason, and a bare "paused: <error>"
 * (a rejected key) is not repeated at all ('': the error line above said it all).
 */
function withoutRepeat(text: string, lastError: string | undefined): string {
  if (lastError === undefined || !text.endsWith(lastError)) return text;
  const rest = text.slice(0, text.length - lastError.length).replace(/[\s:;,]+$/, '');
  const reason = rest.replace(/; last error$/, '');
  return reason === 'paused' ? '' : reason;
}
