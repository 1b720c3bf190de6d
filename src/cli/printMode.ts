import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import { stripTerminalControls, TerminalTextFilter } from '../safety/terminalFilter.js';

export interface PrintModeOptions {
  prompt: string;
  json: boolean;
  /** Stop after this many turns. */
  maxCycles: number;
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream;
}

export interface PrintModeResult {
  exitCode: number;
  turns: number;
  reason: 'wait' | 'max-cycles' | 'paused' | 'interrupted' | 'exit';
}

type Channel = 'none' | 'reasoning' | 'reply';

/**
 * Headless print mode: drives the same agent as the screen and prints its events. Text
 * mode keeps reasoning and reply visibly apart (labels, and dim reasoning on a terminal);
 * `--json` writes one JSON event per line. Approval requests are declined, since nobody is
 * there to answer; the model sees why.
 */
export function runPrintMode(
  agent: Agent,
  opts: PrintModeOptions,
): { done: Promise<PrintModeResult>; cancel(): void } {
  const color = opts.out.isTTY === true;
  const dim = (s: string): string => (color ? `\x1b[2m${s}\x1b[22m` : s);
  let channel: Channel = 'none';
  let turns = 0;
  let finish!: (r: PrintModeResult) => void;
  const done = new Promise<PrintModeResult>((resolve) => (finish = resolve));
  let finished = false;

  const end = (reason: PrintModeResult['reason'], exitCode: number): void => {
    if (finished) return;
    finished = true;
    unsubscribe();
    void agent.stop().then(() => {
      if (!opts.json && channel !== 'none') opts.out.write('\n');
      finish({ exitCode, turns, reason });
    });
  };

  const switchTo = (next: Channel): void => {
    if (channel === next) return;
    if (channel !== 'none') opts.out.write('\n');
    opts.out.write(next === 'reasoning' ? dim('[reasoning]\n') : '[reply]\n');
    channel = next;
  };

  // Model and tool text may carry escape sequences (clipboard writes, hidden links, cursor
  // moves); plain-text output never passes them to the terminal. `--json` stays exact.
  const reasoningFilter = new TerminalTextFilter();
  const replyFilter = new TerminalTextFilter();
  const clean = stripTerminalControls;

  const printText = (e: AgentEvent): void => {
    switch (e.type) {
      case 'reasoning_delta':
        switchTo('reasoning');
        opts.out.write(dim(reasoningFilter.push(e.text)));
        break;
      case 'text_delta':
        switchTo('reply');
        opts.out.write(replyFilter.push(e.text));
        break;
      case 'tool_end': {
        if (channel !== 'none') opts.out.write('\n');
        channel = 'none';
        const mark = e.entry.status === 'ok' ? '✓' : '✗';
        opts.out.write(`${mark} ${clean(e.entry.call)} → ${clean(e.entry.summary ?? '')}\n`);
        break;
      }
      case 'error':
        opts.err.write(`error: ${clean(e.error.message)}\n`);
        break;
      case 'notice':
        opts.err.write(`${e.level === 'warn' ? 'warning' : 'note'}: ${clean(e.text)}\n`);
        break;
      default:
        break;
    }
  };

  const unsubscribe = agent.subscribe((e) => {
    if (opts.json) opts.out.write(`${JSON.stringify(e)}\n`);
    else printText(e);
    if (e.type === 'approval_request') {
      const text = `${e.request.call} needs approval, declined in print mode (set approval.${e.request.kind} to "auto" in config.json to allow it)`;
      if (!opts.json) opts.err.write(`note: ${clean(text)}\n`);
      queueMicrotask(() => agent.answerApproval('no'));
    }
    if (e.type === 'exit_requested') end('exit', 0);
    if (e.type === 'turn_end') {
      turns += 1;
      // The agent settles the machine before it reports turn_end.
      const state = agent.state;
      if (state === 'AWAITING_INPUT') end('wait', 0);
      else if (state === 'PAUSED') end('paused', agent.store.getState().pauseReason ? 1 : 0);
      else if (turns >= opts.maxCycles) end('max-cycles', e.outcome === 'error' ? 1 : 0);
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
  };
}
