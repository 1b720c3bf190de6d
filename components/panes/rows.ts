import type { Span } from '../markdown/spans.js';

/** One screen row of a pane: its text (already fitted to the width) and how it looks. */
export type Tone =
  | 'plain'
  | 'user'
  | 'agent'
  | 'call'
  | 'dim'
  | 'reasoning'
  | 'notice'
  | 'warn'
  | 'error'
  | 'ok'
  | 'label'
  | 'selected';

export interface Row {
  text: string;
  tone: Tone;
  /**
   * The row as styled pieces (rendered Markdown), their text adding up to `text`; when
   * absent, the whole row has the tone's style.
   */
  spans?: readonly Span[];
}

/** Rows for `lines`, the first prefixed with `first` and the rest indented to match. */
export function prefixed(lines: readonly string[], first: string, rest: string, tone: Tone): Row[] {
  return lines.map((text, i) => ({ text: (i === 0 ? first : rest) + text, tone }));
}

/**
 * The rows a pane of `height` shows when scrolled `offset` rows up from the bottom, taking
 * rows from the newest block backwards and stopping as soon as the window is full, so a long
 * history costs only what is on screen. `maxOffset` is exact once the top was reached, and
 * Infinity while there is more above.
 */
export function bottomWindow<B>(
  blocks: readonly B[],
  rowsOf: (block: B) => readonly Row[],
  height: number,
  offset: number,
): { rows: Row[]; offset: number; maxOffset: number } {
  const want = offset + height;
  const parts: (readonly Row[])[] = [];
  let count = 0;
  let i = blocks.length - 1;
  for (; i >= 0 && count < want; i--) {
    const r = rowsOf(blocks[i]!);
    parts.push(r);
    count += r.length;
  }
  const all = parts.reverse().flat();
  const reachedTop = i < 0;
  const maxOffset = reachedTop ? Math.max(0, all.length - height) : Infinity;
  const off = Math.min(offset, maxOffset);
  const end = all.length - off;
  return { rows: all.slice(Math.max(0, end - height), end), offset: off, maxOffset };
}
