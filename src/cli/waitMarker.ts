/** The marker a reply ends with when the model wants the user's answer. */
const MARKER = '[WAIT]';

/**
 * Removes the `[WAIT]` marker from the end of a streamed reply, for print mode's stdout:
 * `cogito -p "…" > answer.md` should capture the answer, not the protocol. Text that could
 * still turn out to be the marker (a trailing `[WA`, or whitespace) is held back until the
 * next chunk shows it is not, or the reply ends. A `[WAIT]` followed by more text is not the
 * marker (it only counts as the last thing in a reply) and is printed as it came.
 */
export interface WaitMarkerFilter {
  /** Takes the next chunk; returns what can be printed now. */
  push(text: string): string;
  /** The reply ended: returns what was held back, without the marker if it was one. */
  end(): string;
}

/** Where the held-back tail of `text` starts: the part that may still become the marker. */
function heldFrom(text: string): number {
  let start = text.length;
  while (start > 0 && /\s/.test(text[start - 1]!)) start -= 1;
  const bracket = text.lastIndexOf('[');
  if (bracket === -1) return start;
  const tail = text.slice(bracket);
  const mayBeMarker =
    MARKER.startsWith(tail) || (tail.startsWith(MARKER) && tail.slice(MARKER.length).trim() === '');
  if (!mayBeMarker) return start;
  let from = bracket;
  while (from > 0 && /\s/.test(text[from - 1]!)) from -= 1;
  return from;
}

/** A fresh filter for one reply. */
export function createWaitMarkerFilter(): WaitMarkerFilter {
  let held = '';
  return {
    push(text) {
      const all = held + text;
      const cut = heldFrom(all);
      held = all.slice(cut);
      return all.slice(0, cut);
    },
    end() {
      const rest = held;
      held = '';
      return rest.trim() === MARKER ? '' : rest;
    },
  };
}
