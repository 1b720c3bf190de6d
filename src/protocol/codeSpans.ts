/**
 * Markdown code recognition for the tool-protocol scanner: fenced blocks and the landmarks
 * that inline code spans may not cross. A call written inside code is an example the model
 * is showing, not a call it wants to run, so the scanner needs to know where code is.
 *
 * The rules follow CommonMark closely enough for model output, with one deliberate widening:
 * a fence may be indented by any amount (models indent fences inside list items), because
 * mistaking an example for a real call is worse than the reverse.
 */

/** An opening code fence: its character and how many of them it used. */
export interface Fence {
  readonly char: '`' | '~';
  readonly len: number;
}

const BACKTICK = 0x60;
const TILDE = 0x7e;
const NEWLINE = 0x0a;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * The fence opened by the line starting at `lineStart`, or undefined when that line is not
 * a fence. A backtick fence's info string may not contain a backtick (CommonMark), so that
 * "```ls()``` lists files" stays an inline code span and does not swallow the rest.
 */
export function fenceAt(src: string, lineStart: number): Fence | undefined {
  let i = lineStart;
  while (i < src.length && isBlank(src.charCodeAt(i))) i += 1;
  const code = src.charCodeAt(i);
  if (code !== BACKTICK && code !== TILDE) return undefined;
  let j = i;
  while (src.charCodeAt(j) === code) j += 1;
  const len = j - i;
  if (len < 3) return undefined;
  if (code === BACKTICK) {
    const lineEnd = src.indexOf('\n', j);
    const info = src.slice(j, lineEnd === -1 ? src.length : lineEnd);
    if (info.includes('`')) return undefined;
  }
  return { char: code === BACKTICK ? '`' : '~', len };
}

/** Whether the line starting at `lineStart` closes `fence`: same char, at least as long, nothing else. */
function closesFence(src: string, lineStart: number, lineEnd: number, fence: Fence): boolean {
  let i = lineStart;
  while (i < lineEnd && isBlank(src.charCodeAt(i))) i += 1;
  const code = fence.char.charCodeAt(0);
  let j = i;
  while (j < lineEnd && src.charCodeAt(j) === code) j += 1;
  if (j - i < fence.len) return false;
  while (j < lineEnd && (isBlank(src.charCodeAt(j)) || src.charCodeAt(j) === 0x0d)) j += 1;
  return j === lineEnd;
}

/**
 * Where the fenced block opened at `lineStart` ends: just past the closing line's newline,
 * or the end of the text for an unclosed fence (a model that stops mid-block is still
 * writing code).
 */
export function fenceBlockEnd(src: string, lineStart: number, fence: Fence): number {
  let nl = src.indexOf('\n', lineStart);
  while (nl !== -1) {
    const start = nl + 1;
    const next = src.indexOf('\n', start);
    const end = next === -1 ? src.length : next;
    if (closesFence(src, start, end, fence)) return next === -1 ? src.length : next + 1;
    nl = next;
  }
  return src.length;
}

/** Length of the run of backticks starting at `i`. */
export function backtickRunLength(src: string, i: number): number {
  let j = i;
  while (src.charCodeAt(j) === BACKTICK) j += 1;
  return j - i;
}

/** Whether `i` is the first character of a line. */
export function isLineStart(src: string, i: number): boolean {
  return i === 0 || src.charCodeAt(i - 1) === NEWLINE;
}
