/**
 * Writes Ink's frames to the terminal row by row: only the rows that changed since the
 * last frame, each placed with an absolute cursor move (rows that moved together are moved
 * by the terminal: scrollDiff.ts), the whole frame in one write inside synchronized-output
 * markers. Ink runs in its debug mode against this stand-in stdout, so
 * it hands over every frame whole instead of writing it itself.
 *
 * Why not Ink's own `incrementalRendering`: in 6.8 it moves the cursor up one row too few
 * after a frame that ends in a newline (every frame shorter than the terminal does), so the
 * screen drifts and keeps stale rows. Absolute moves cannot drift, and a row that wrapped
 * (a width the terminal counts differently) is repaired by the next frame that touches it.
 */
import { EventEmitter } from 'node:events';
import { applyShift, findShift, shiftSequence } from './scrollDiff.js';

export const BSU = '\x1b[?2026h';
export const ESU = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const CLEAR = '\x1b[2J';

export interface FrameTarget {
  write(chunk: string): unknown;
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** The escape sequences that bring a screen showing `before` to `after` (rows by index). */
export function diffRows(before: readonly string[] | undefined, after: readonly string[]): string {
  let out = '';
  const rows = Math.max(after.length, before?.length ?? 0);
  for (let i = 0; i < rows; i++) {
    const next = after[i] ?? '';
    if (before && before[i] === next) continue;
    out += `\x1b[${i + 1};1H${next}\x1b[K`;
  }
  return out;
}

/**
 * The escape sequences from a screen showing `before` to `after`: rows that moved together
 * (a pane that scrolled) are moved by the terminal, then the rows still different written.
 */
export function frameDiff(before: readonly string[], after: readonly string[]): string {
  const shift = findShift(before, after);
  if (!shift) return diffRows(before, after);
  return shiftSequence(shift) + diffRows(applyShift(before, shift), after);
}

/** The stand-in stdout Ink writes to; it forwards size and resize from the real one. */
export class FrameWriter extends EventEmitter {
  readonly isTTY = true;
  private last: string[] | undefined;
  private size = '';
  private readonly onResize = (): void => {
    this.emit('resize');
  };

  constructor(private readonly target: FrameTarget) {
    super();
    target.on('resize', this.onResize);
  }

  get columns(): number {
    return this.target.columns ?? 80;
  }

  get rows(): number {
    return this.target.rows ?? 24;
  }

  /** A frame from Ink (debug mode writes nothing else). */
  write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const frame = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = frame.replace(/\n$/, '').split('\n');
    const size = `${this.columns}x${this.rows}`;
    // A new size: the terminal may have reflowed what was there, so wipe and paint it all.
    const resized = this.last !== undefined && size !== this.size;
    const fresh = this.last === undefined || resized;
    const body = fresh ? diffRows(undefined, lines) : frameDiff(this.last!, lines);
    this.size = size;
    this.last = lines;
    if (body !== '' || fresh)
      this.target.write(BSU + (fresh ? HIDE_CURSOR : '') + (resized ? CLEAR : '') + body + ESU);
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  };

  /**
   * Paints `after` over rows `top`… at once, outside Ink's frames, when the screen shows
   * `before` there now (anything else: a frame moved the rows, or the size changed, and
   * nothing is painted). The rows are remembered as the screen's, so the next frame from
   * Ink writes them again only if it draws them differently. Returns whether it painted.
   */
  patch(top: number, before: readonly string[], after: readonly string[]): boolean {
    const last = this.last;
    if (last === undefined || `${this.columns}x${this.rows}` !== this.size) return false;
    if (top < 0 || top + after.length > last.length || before.length !== after.length) return false;
    if (before.some((row, i) => last[top + i] !== row)) return false;
    const next = last.slice();
    after.forEach((row, i) => (next[top + i] = row));
    const body = diffRows(last, next);
    this.last = next;
    if (body !== '') this.target.write(BSU + body + ESU);
    return true;
  }

  /** The screen was wiped behind Ink's back (Ctrl+L, a new tree): the next frame paints all. */
  invalidate(): void {
    this.last = undefined;
  }

  /**
   * Paints the last frame whole, now: the screen was blank behind Ink's back (another program
   * had the terminal), and nothing in the tree may have changed to make Ink draw again.
   */
  repaint(): void {
    const last = this.last;
    if (last === undefined) return;
    this.size = `${this.columns}x${this.rows}`;
    this.target.write(BSU + HIDE_CURSOR + CLEAR + diffRows(undefined, last) + ESU);
  }

  /** Stops following the real terminal's size. */
  close(): void {
    this.target.off('resize', this.onResize);
  }
}
