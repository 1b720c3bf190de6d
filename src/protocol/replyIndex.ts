/**
 * Sorted positions of the landmarks in a reply, computed once so the scanner and the
 * malformed-call recovery can jump between them in logarithmic time. Without this, a reply
 * full of stray backticks or broken calls would be rescanned from each one (quadratic).
 */
import { fenceAt } from './codeSpans.js';
import { drain } from '../core/steps.js';

export interface ReplyIndex {
  /** The reply itself. */
  readonly src: string;
  /** Starts of every `[TOOL]` (any case), inside strings or code or not. */
  readonly openTags: readonly number[];
  /** Starts of every `[/TOOL]` (any case). */
  readonly closeTags: readonly number[];
  /** Line starts of the lines that open or close a code fence. */
  readonly fenceLines: readonly number[];
  /** Positions an inline code span may not cross: blank lines and fence lines. */
  readonly breaks: readonly number[];
  /** Backtick runs by length: run length → sorted run starts. */
  readonly runs: ReadonlyMap<number, readonly number[]>;
  /** Starts of all backtick runs. */
  readonly backticks: readonly number[];
  /** Start of the `[WAIT]` that is the last non-whitespace thing in the reply, or -1. */
  readonly waitAt: number;
}

export const OPEN_TAG = '[tool]';
export const CLOSE_TAG = '[/tool]';
/**
 * The `[WAIT]` contract: the tag, optionally in bold (`**[WAIT]**`), then at most four
 * punctuation characters (`[WAIT].`, `[WAIT]!`), at the very end of the reply. Models write
 * these variants often enough that missing them would keep a session running for nothing.
 */
const TRAILING_WAIT = /(?:\*\*|__)?\[wait\](?:\*\*|__)?\p{P}{0,4}$/iu;

/** Builds the index of `src` in one pass per landmark kind. */
export function indexReply(src: string): ReplyIndex {
  return drain(indexReplySteps(src));
}

/** Landmarks visited between two pauses of {@link indexReplySteps}. */
const STEP = 256;

/**
 * {@link indexReply} as steps: it pauses (yields) every few thousand landmarks, so a caller
 * can let the event loop run while a hostile reply with 200,000 tags is indexed.
 */
export function* indexReplySteps(src: string): Generator<void, ReplyIndex, void> {
  let n = 0;
  const openTags: number[] = [];
  const closeTags: number[] = [];
  for (const m of src.matchAll(/\[(\/?)tool\]/gi)) {
    (m[1] === '' ? openTags : closeTags).push(m.index);
    if (++n % STEP === 0) yield;
  }

  const fenceLines: number[] = [];
  for (const m of src.matchAll(/^[ \t]*(?:`{3}|~{3})/gm)) {
    if (fenceAt(src, m.index) !== undefined) fenceLines.push(m.index);
    if (++n % STEP === 0) yield;
  }

  const blankLines: number[] = [];
  for (const m of src.matchAll(/\n[ \t]*\r?\n/g)) {
    blankLines.push(m.index + 1);
    if (++n % STEP === 0) yield;
  }
  const breaks = mergeSorted(fenceLines, blankLines);

  const runs = new Map<number, number[]>();
  const backticks: number[] = [];
  for (const m of src.matchAll(/`+/g)) {
    backticks.push(m.index);
    const len = m[0].length;
    const list = runs.get(len);
    if (list === undefined) runs.set(len, [m.index]);
    else list.push(m.index);
    if (++n % STEP === 0) yield;
  }

  const trimmed = src.trimEnd();
  // Only the tail can hold it: bounded, so a long reply costs nothing extra here.
  const tail = trimmed.slice(-32);
  const found = TRAILING_WAIT.exec(tail);
  const waitAt = found ? trimmed.length - tail.length + found.index : -1;

  return { src, openTags, closeTags, fenceLines, breaks, runs, backticks, waitAt };
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i] ?? Infinity;
    const y = b[j] ?? Infinity;
    if (x <= y) {
      out.push(x);
      i += 1;
    } else {
      out.push(y);
      j += 1;
    }
  }
  return out;
}

/** The first value in `sorted` that is at least `x`, or Infinity when there is none. */
export function firstAtOrAfter(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? Infinity) < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] ?? Infinity;
}

/** Which protocol tag, if any, starts at `i` (case-insensitive). */
export function tagAt(src: string, i: number): 'open' | 'close' | undefined {
  if (src.charCodeAt(i) !== 0x5b) return undefined;
  if (src.slice(i, i + OPEN_TAG.length).toLowerCase() === OPEN_TAG) return 'open';
  if (src.slice(i, i + CLOSE_TAG.length).toLowerCase() === CLOSE_TAG) return 'close';
  return undefined;
}
