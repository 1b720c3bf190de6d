/**
 * What one read from the terminal holds, as the screen should take it. Ink hands its input
 * hook whatever arrived together: `helo⌫lo⏎` typed fast (or sent by a terminal in one
 * write) would be one "paste" of `helolo` and a newline, with nothing sent. So:
 *
 * - text between the bracketed-paste markers (`ESC[200~` … `ESC[201~`, enabled by the
 *   terminal guard) is one paste, however many reads it spans, and stays text;
 * - any other run of several characters is split into single keys, each resolved on its own
 *   (so Backspace deletes and a final Enter sends);
 * - escape sequences already come one per event (Ink's input parser splits them).
 */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

type Piece = { kind: 'key'; data: string } | { kind: 'paste'; text: string };

// Escape sequences inside a paste (rare: pasted terminal output) are dropped from its text.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?/g;

/** Single keys for one read outside a paste: one per character unless it is a sequence. */
function keys(data: string): Piece[] {
  if (data === '') return [];
  if (data.includes('\x1b')) return [{ kind: 'key', data }];
  const chars = Array.from(data);
  return chars.length === 1
    ? [{ kind: 'key', data }]
    : chars.map((c) => ({ kind: 'key', data: c }));
}

interface InputChunks {
  /** The keys and pastes in one input event, in order; empty while a paste is still open. */
  feed(data: string): Piece[];
  /** A paste has started and not yet ended. */
  readonly pasting: boolean;
}

export function createInputChunks(): InputChunks {
  let paste: string | undefined;
  const feed = (data: string): Piece[] => {
    if (paste !== undefined) {
      const end = data.indexOf(PASTE_END);
      if (end === -1) {
        paste += data;
        return [];
      }
      const text = (paste + data.slice(0, end)).replace(ESCAPES, '');
      paste = undefined;
      return [{ kind: 'paste', text }, ...feed(data.slice(end + PASTE_END.length))];
    }
    const start = data.indexOf(PASTE_START);
    if (start === -1) return keys(data);
    paste = '';
    return [...keys(data.slice(0, start)), ...feed(data.slice(start + PASTE_START.length))];
  };
  return {
    feed,
    get pasting() {
      return paste !== undefined;
    },
  };
}
