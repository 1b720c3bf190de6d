import { stripTerminalControls } from '../safety/terminalFilter.js';
import { createWaitMarkerFilter } from './waitMarker.js';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * Print mode's stdout in text mode: the final answer, nothing else. A reply that called tools
 * is narration on the way ("Let me read it." and the call itself), not the answer; the answer
 * is the last reply that called none. So each reply is held until it is known which it was,
 * and the answer is written once, when the run ends.
 */
export interface AnswerWriter {
  /** A new reply begins (a request went out). */
  startReply(): void;
  /** The current reply was cut off and is sent again: what came of it is no answer. */
  dropReply(): void;
  /** A chunk of the current reply. */
  write(text: string): void;
  /**
   * The current reply called tools: it is narration. Returns its text not yet handed out
   * (for `--verbose`), '' after the first call.
   */
  takeNarration(): string;
  /** Whether some reply so far called no tools (there is an answer to write). */
  hasAnswer(): boolean;
  /** The run is over: writes the answer (without its `[WAIT]`, ending with a newline). */
  close(): void;
}

export function createAnswerWriter(out: Out): AnswerWriter {
  let current = '';
  let currentIsNarration = false;
  let narrationTaken = 0;
  /** The last finished reply that called no tools. */
  let answer: string | undefined;
  const settle = (): void => {
    if (!currentIsNarration && current.trim() !== '') answer = current;
    current = '';
    currentIsNarration = false;
    narrationTaken = 0;
  };
  return {
    startReply: settle,
    dropReply() {
      current = '';
      currentIsNarration = false;
      narrationTaken = 0;
    },
    write(text) {
      current += text;
    },
    takeNarration() {
      currentIsNarration = true;
      const text = current.slice(narrationTaken);
      narrationTaken = current.length;
      return text;
    },
    hasAnswer: () => answer !== undefined || (!currentIsNarration && current.trim() !== ''),
    close() {
      settle();
      if (answer === undefined) return;
      const filter = createWaitMarkerFilter();
      const text = stripTerminalControls(filter.push(answer) + filter.end());
      if (text === '') return;
      out.write(text.endsWith('\n') ? text : `${text}\n`);
      answer = undefined;
    },
  };
}

/** Print mode's stderr in text mode: tool progress and notices; with `--verbose`, more. */
export interface ProgressWriter {
  /** Reasoning (`--verbose`): labelled and, on a terminal, dim. */
  reasoning(text: string): void;
  /** A reply's narration (`--verbose`): the model's text and tool calls as it wrote them. */
  narration(text: string): void;
  /** One line of progress (a tool's result, a notice); ends any block above first. */
  line(text: string): void;
  close(): void;
}

/** Labelled blocks so nothing on stderr reads as the answer. */
export function createProgressWriter(err: Out): ProgressWriter {
  const color = err.isTTY === true;
  const dim = (s: string): string => (color ? `\x1b[2m${s}\x1b[22m` : s);
  let block: 'reasoning' | 'narration' | undefined;
  let atLineStart = true;
  const closeBlock = (): void => {
    if (block !== undefined && !atLineStart) err.write('\n');
    block = undefined;
    atLineStart = true;
  };
  const inBlock = (kind: 'reasoning' | 'narration', text: string, style: typeof dim): void => {
    if (text === '') return;
    if (block !== kind) {
      closeBlock();
      err.write(style(`[${kind}]\n`));
    }
    block = kind;
    err.write(style(text));
    atLineStart = text.endsWith('\n');
  };
  return {
    reasoning: (text) => inBlock('reasoning', text, dim),
    narration: (text) => inBlock('narration', text, (s) => s),
    line(text) {
      closeBlock();
      err.write(`${text}\n`);
    },
    close: closeBlock,
  };
}
