/**
 * A faster `Output.get()` for Ink 6.8, with the same result (installed by the door into Ink's
 * internals, inkInternals.ts, only on the Ink it was written for).
 *
 * Ink makes a new `Output` for every frame and its `get()` builds a width × height grid of
 * styled cells, tokenizes and measures every line written, then turns every row back into a
 * string. Its caches live on the instance, so nothing survives to the next frame, although
 * almost every row is the same as in the last one; while a reply streams this was half of
 * all the program's CPU (bench/README.md, "Profiles").
 *
 * This `get()` walks the same operations with the same clip stack and skip tests, but only
 * collects, per row, the ordered (x, transformed and clipped line) pieces placed on it. The
 * string of a row depends on nothing else (and the width), so a row whose pieces are those
 * of an earlier frame reuses that frame's string; only rows that miss are built, cell by
 * cell as Ink builds them. Tokenized lines, widths and slices are kept across frames too.
 * Every cache is bounded (`BoundedCache`), so memory stays flat over a day.
 *
 * Nothing here imports Ink: `composeFrame` reads the operations of an `Output` whose private
 * shape inkOutputShape.ts declares.
 */
import {
  styledCharsFromTokens,
  styledCharsToString,
  tokenize,
  type StyledChar,
} from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { BoundedCache } from './boundedCache.js';
import type {
  InkClip as Clip,
  InkOperation as Operation,
  InkOutputState,
} from './inkOutputShape.js';

/** What `Output.get()` returns: the frame's rows joined by newlines, and its height. */
export type FrameResult = { output: string; height: number };

/**
 * Entries per generation (each cache holds at most twice as many), sized to what a screen
 * shows: a 40-row frame places a few dozen rows and pieces, so a generation holds several
 * frames' worth and the caches reach their steady size within minutes, not after a day.
 * Tokenized lines are the heavy ones (an object per character, ~9 KB for a 100-column line)
 * and are needed only for rows that changed, so they get the fewest.
 */
export const FAST_OUTPUT_LIMITS = Object.freeze({
  styled: 200,
  widths: 2_000,
  blocks: 1_000,
  slices: 2_000,
  rows: 600,
});
const LIMITS = FAST_OUTPUT_LIMITS;

const caches = {
  styled: new BoundedCache<string, StyledChar[]>(LIMITS.styled),
  widths: new BoundedCache<string, number>(LIMITS.widths),
  blocks: new BoundedCache<string, number>(LIMITS.blocks),
  slices: new BoundedCache<string, string>(LIMITS.slices),
  rows: new BoundedCache<string, string>(LIMITS.rows),
};

/** The entries held by each cache now (tests check they stay bounded). */
export function fastOutputCacheSizes(): Record<keyof typeof caches, number> {
  return {
    styled: caches.styled.size,
    widths: caches.widths.size,
    blocks: caches.blocks.size,
    slices: caches.slices.size,
    rows: caches.rows.size,
  };
}

/** Empties every cache (tests start from nothing). */
export function clearFastOutputCaches(): void {
  for (const cache of Object.values(caches)) cache.clear();
}

function styledChars(line: string): StyledChar[] {
  let hit = caches.styled.get(line);
  if (hit === undefined) {
    hit = styledCharsFromTokens(tokenize(line));
    caches.styled.set(line, hit);
  }
  return hit;
}

function widthOf(text: string): number {
  let hit = caches.widths.get(text);
  if (hit === undefined) {
    hit = stringWidth(text);
    caches.widths.set(text, hit);
  }
  return hit;
}

function widestLine(text: string): number {
  let hit = caches.blocks.get(text);
  if (hit === undefined) {
    hit = 0;
    for (const line of text.split('\n')) hit = Math.max(hit, widthOf(line));
    caches.blocks.set(text, hit);
  }
  return hit;
}

function slice(line: string, from: number, to: number): string {
  const key = `${from},${to},${line}`;
  let hit = caches.slices.get(key);
  if (hit === undefined) {
    hit = sliceAnsi(line, from, to);
    caches.slices.set(key, hit);
  }
  return hit;
}

/** One row's pieces in the order they were written: [x, line, x, line, …]. */
type Pieces = (number | string)[];

/**
 * Places one write's lines on the rows, as Ink's `get` does: the same skip tests against
 * the innermost clip, horizontal slices, vertical cut, and the transformers run per line
 * with its index, only for lines that land on a row.
 */
function placeWrite(rows: Pieces[], op: Operation & { type: 'write' }, clip?: Clip): void {
  const { text, transformers } = op;
  let { x, y } = op;
  const lines = text.split('\n');
  const clipH = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
  const clipV = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
  const { x1 = 0, x2 = 0, y1 = 0, y2 = 0 } = clip ?? {};
  // Wholly outside the clip: skipped before anything is measured or sliced.
  if (clipH && (x + widestLine(text) < x1 || x > x2)) return;
  if (clipV && (y + lines.length < y1 || y > y2)) return;
  const from = clipH && x < x1 ? x1 - x : 0;
  const lineX = x;
  if (clipH && x < x1) x = x1;
  let kept = lines;
  if (clipV) {
    const height = lines.length;
    kept = lines.slice(y < y1 ? y1 - y : 0, y + height > y2 ? y2 - y : height);
    if (y < y1) y = y1;
  }
  // Ink slices every line horizontally, then cuts the rows; slicing is pure, so cutting
  // first and slicing only the lines that land on a row gives the same lines.
  let offsetY = 0;
  for (let index = 0; index < kept.length; index++) {
    const row = rows[y + offsetY];
    // Ink drops a line with no row without moving down, so every later line lands on that
    // same missing row and is dropped too (its transformers never run): stop here.
    if (!row) break;
    let line = kept[index]!;
    if (clipH) {
      const width = widthOf(line);
      line = slice(line, from, lineX + width > x2 ? x2 - lineX : width);
    }
    for (const transformer of transformers) line = transformer(line, index);
    row.push(x, line);
    offsetY++;
  }
}

/** Builds one row's string from its pieces, cell by cell exactly as Ink builds the grid. */
function buildRow(width: number, pieces: Pieces): string {
  const cells: StyledChar[] = [];
  for (let x = 0; x < width; x++)
    cells.push({ type: 'char', value: ' ', fullWidth: false, styles: [] });
  for (let i = 0; i < pieces.length; i += 2) {
    let offsetX = pieces[i] as number;
    for (const character of styledChars(pieces[i + 1] as string)) {
      cells[offsetX] = character;
      const characterWidth = Math.max(1, widthOf(character.value));
      for (let k = 1; k < characterWidth; k++) {
        cells[offsetX + k] = {
          type: 'char',
          value: '',
          fullWidth: false,
          styles: character.styles,
        };
      }
      offsetX += characterWidth;
    }
  }
  // Ink drops the holes a write past the row's end leaves (ink#564).
  return styledCharsToString(cells.filter((item) => item !== undefined)).trimEnd();
}

function rowString(width: number, pieces: Pieces): string {
  if (pieces.length === 0) return '';
  let key = `${width}`;
  for (let i = 0; i < pieces.length; i += 2) {
    const line = pieces[i + 1] as string;
    key += `|${pieces[i] as number},${line.length},${line}`;
  }
  let hit = caches.rows.get(key);
  if (hit === undefined) {
    hit = buildRow(width, pieces);
    caches.rows.set(key, hit);
  }
  return hit;
}

/** The frame an `Output` holding `state` makes: what Ink's `get` returns for it. */
export function composeFrame(state: InkOutputState): FrameResult {
  const { width, height, operations } = state;
  const rows: Pieces[] = [];
  for (let y = 0; y < height; y++) rows.push([]);
  const clips: Clip[] = [];
  for (const op of operations) {
    if (op.type === 'clip') clips.push(op.clip);
    else if (op.type === 'unclip') clips.pop();
    else if (op.type === 'write') placeWrite(rows, op, clips.at(-1));
  }
  return { output: rows.map((pieces) => rowString(width, pieces)).join('\n'), height };
}
