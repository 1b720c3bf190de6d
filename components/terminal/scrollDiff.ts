/**
 * Frames whose rows moved: when a streaming reply grows, the conversation pane's rows all
 * move up a row or two, so a plain row diff writes the whole pane again on every frame (the
 * bulk of a reply's bytes). The terminal can move them itself: a scroll region (DECSTBM)
 * around the rows that moved, scrolled by line feeds at its bottom (or reverse index at its
 * top, for content moving down), then only the rows that are really new are written.
 * Both are VT100 and every terminal has them; the frame stays one write inside the
 * synchronized-output markers.
 */

/** Rows `from`..`to` (0-based, inclusive) scroll by `by`: up when positive, down when negative. */
export interface Shift {
  from: number;
  to: number;
  by: number;
}

/** Shifts of more rows than this are not looked for (a pane rarely moves further per frame). */
const MAX_SHIFT = 16;
/** What the scroll costs in bytes, about: it must save more than this to be used. */
const SHIFT_COST = 32;

/** The shift that saves the most bytes of `after` against `before`, if one saves any. */
export function findShift(before: readonly string[], after: readonly string[]): Shift | undefined {
  const n = Math.min(before.length, after.length);
  let best: { shift: Shift; saved: number } | undefined;
  for (let by = -Math.min(MAX_SHIFT, n - 1); by <= Math.min(MAX_SHIFT, n - 1); by++) {
    if (by === 0) continue;
    // Rows i that the shift would bring into place: after[i] is before[i + by].
    const lo = Math.max(0, -by);
    const hi = Math.min(n, n - by);
    let runStart = -1;
    let saved = 0;
    for (let i = lo; i <= hi; i++) {
      const match = i < hi && after[i] === before[i + by];
      if (match) {
        if (runStart === -1) {
          runStart = i;
          saved = 0;
        }
        // Only rows that a plain diff would have written count as saved.
        if (after[i] !== before[i]) saved += after[i]!.length + 8;
        continue;
      }
      if (runStart !== -1 && saved > SHIFT_COST && (!best || saved > best.saved)) {
        const end = i - 1;
        const shift =
          by > 0 ? { from: runStart, to: end + by, by } : { from: runStart + by, to: end, by };
        best = { shift, saved };
      }
      runStart = -1;
    }
  }
  return best?.shift;
}

/** The screen's rows after the terminal carried out `shift` (rows scrolled in are blank). */
export function applyShift(rows: readonly string[], shift: Shift): string[] {
  const out = rows.slice();
  const { from, to, by } = shift;
  for (let i = from; i <= to; i++) {
    const src = i + by;
    out[i] = src >= from && src <= to ? rows[src]! : '';
  }
  return out;
}

/** The escape sequences that make the terminal carry out `shift`. */
export function shiftSequence(shift: Shift): string {
  const { from, to, by } = shift;
  // Attributes off first: the rows scrolled in are cleared with the current background.
  const region = `\x1b[0m\x1b[${from + 1};${to + 1}r`;
  const moves =
    by > 0 ? `\x1b[${to + 1};1H${'\n'.repeat(by)}` : `\x1b[${from + 1};1H${'\x1bM'.repeat(-by)}`;
  // The region back to the whole screen (which also homes the cursor; every row write moves it).
  return `${region}${moves}\x1b[r`;
}
