/**
 * The screens Cogito meant to show, rebuilt from the bytes it wrote, and the checks a
 * `capture-pane` screen must pass to count as a whole frame.
 *
 * Cogito's frame writer (components/terminal/frameWriter.ts) writes a frame as one
 * `ESC[?2026h … ESC[?2026l` block of rows, each `ESC[<row>;1H<text>ESC[K`, after rows
 * moved by a scroll region (`ESC[<top>;<bottom>r`, line feeds or reverse index, `ESC[r`),
 * and a wipe as `ESC[2J`. Replaying just that gives, after each frame, the text of every row; a capture
 * of the terminal is whole when it equals one of those screens. A capture taken while the
 * terminal had read only part of a frame (the torn frame of issue #15) equals none of them.
 */
import stringWidth from 'string-width';
import { applyShift } from '../../components/terminal/scrollDiff.js';
import { stripAnsi } from './outputLog.js';

const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
// eslint-disable-next-line no-control-regex
const ROW = /\x1b\[(\d+);1H([\s\S]*?)\x1b\[K/g;
// eslint-disable-next-line no-control-regex
const SHIFT = /\x1b\[0m\x1b\[(\d+);(\d+)r\x1b\[(\d+);1H((?:\r?\n)+|(?:\x1bM)+)\x1b\[r/;

/** The screen after each whole frame in `output`, one string of trimmed rows joined by \n. */
export function replayFrames(output: string, rows: number): Set<string> {
  const screen: string[] = Array.from({ length: rows }, () => '');
  const seen = new Set<string>();
  let at = 0;
  for (;;) {
    const start = output.indexOf(BSU, at);
    if (start === -1) break;
    const end = output.indexOf(ESU, start);
    if (end === -1) break;
    // A wipe before the frame (Ctrl+L, a new tree, a resize) blanks every row.
    if (output.slice(at, end).includes('\x1b[2J')) screen.fill('');
    let body = output.slice(start, end);
    // Rows the terminal moved first (a scroll region: components/terminal/scrollDiff.ts).
    const moved = SHIFT.exec(body);
    if (moved) {
      const [all, top, bottom, , feeds] = moved;
      // Line feeds (the terminal's output processing may have put a CR before each), or RIs.
      const feedCount = feeds!.split('\n').length - 1;
      const by = feedCount > 0 ? feedCount : -(feeds!.length / 2);
      const shifted = applyShift(screen, { from: Number(top) - 1, to: Number(bottom) - 1, by });
      screen.splice(0, screen.length, ...shifted);
      body = body.replace(all, '');
    }
    for (const m of body.matchAll(ROW)) {
      const row = Number(m[1]) - 1;
      if (row >= 0 && row < rows) screen[row] = stripAnsi(m[2]!).trimEnd();
    }
    seen.add(screen.join('\n'));
    at = end + ESU.length;
  }
  return seen;
}

/** A capture as replayFrames keys its screens. */
export function screenKey(lines: readonly string[], rows: number): string {
  const padded = Array.from({ length: rows }, (_, i) => (lines[i] ?? '').trimEnd());
  return padded.join('\n');
}

/**
 * What is wrong with a captured Cogito screen, by the marks of the torn frames the issue
 * saw (empty when nothing is): the status bar on row 1, every pane rule the full width,
 * the input box, and the key hints on the last drawn row.
 */
export function frameFaults(lines: readonly string[], cols: number): string[] {
  const faults: string[] = [];
  if (!/^● \S/.test(lines[0] ?? '')) faults.push('no status bar on row 1');
  lines.forEach((line, i) => {
    if (/^(── |━━ )/.test(line) && stringWidth(line) !== cols)
      faults.push(`row ${i + 1}: a pane rule ${stringWidth(line)} columns wide`);
  });
  const input = lines.findIndex((l) => l.startsWith('━━ Input'));
  if (input === -1 || !(lines[input + 1] ?? '').startsWith('›')) faults.push('no input box');
  const last = lines.findLast((l) => l.trim() !== '') ?? '';
  if (!/quit$/.test(last.trim())) faults.push('no key hints on the last row');
  return faults;
}
