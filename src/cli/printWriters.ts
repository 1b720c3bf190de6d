import { createWaitMarkerFilter } from './waitMarker.js';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** Print mode's stdout in text mode: the replies, nothing else. */
export interface ReplyWriter {
  /** A chunk of the current reply. */
  write(text: string): void;
  /** The current reply ended (its turn is over): drop a final `[WAIT]`. */
  endReply(): void;
  /** The run is over: end the output with a newline if it has any. */
  close(): void;
}

/**
 * Writes the replies to `out`, each without its `[WAIT]` marker; consecutive replies are
 * separated by a line break, and the output ends with a newline, so a shell prompt after
 * `cogito -p …` starts on its own line and `> answer.md` holds a proper text file.
 */
export function createReplyWriter(out: Out): ReplyWriter {
  let filter = createWaitMarkerFilter();
  let wrote = false;
  let atLineStart = true;
  /** A reply ended; the next one starts on a new line. */
  let pendingBreak = false;
  const emit = (text: string): void => {
    if (text === '') return;
    if (wrote && !atLineStart && pendingBreak) out.write('\n');
    pendingBreak = false;
    out.write(text);
    wrote = true;
    atLineStart = text.endsWith('\n');
  };
  return {
    write: (text) => emit(filter.push(text)),
    endReply() {
      emit(filter.end());
      filter = createWaitMarkerFilter();
      pendingBreak = true;
    },
    close() {
      emit(filter.end());
      if (wrote && !atLineStart) out.write('\n');
      atLineStart = true;
    },
  };
}

/** Print mode's stderr in text mode: reasoning, tool progress and notices. */
export interface ProgressWriter {
  reasoning(text: string): void;
  /** One line of progress (a tool's result, a notice); ends any reasoning block first. */
  line(text: string): void;
  close(): void;
}

/** Reasoning is labelled and, on a terminal, dim, so it never reads as the answer. */
export function createProgressWriter(err: Out): ProgressWriter {
  const color = err.isTTY === true;
  const dim = (s: string): string => (color ? `\x1b[2m${s}\x1b[22m` : s);
  let inReasoning = false;
  let atLineStart = true;
  const closeReasoning = (): void => {
    if (inReasoning && !atLineStart) err.write('\n');
    inReasoning = false;
    atLineStart = true;
  };
  return {
    reasoning(text) {
      if (!inReasoning) err.write(dim('[reasoning]\n'));
      inReasoning = true;
      err.write(dim(text));
      if (text !== '') atLineStart = text.endsWith('\n');
    },
    line(text) {
      closeReasoning();
      err.write(`${text}\n`);
    },
    close: closeReasoning,
  };
}
