/**
 * Measures the frames an in-process Ink app writes: a stand-in terminal that counts bytes
 * and clear-screen sequences, plus timer instrumentation that times each frame's task.
 *
 * Frame time: the app renders in timer callbacks (the store's frame clock, Ink's throttle,
 * the spinner, React's scheduler in setImmediate) and in the microtasks React queues from
 * them. Each such callback is wrapped:
 * its start is noted, and a microtask queued after it (so it runs after React's) closes the
 * span; when the span wrote to the terminal, its length is one frame time: the callback, the
 * React render and commit, Ink's layout and output, and the write.
 */
import { EventEmitter } from 'node:events';

/** Sequences that wipe the whole screen (Ink's clearTerminal is `\x1b[2J\x1b[3J\x1b[H`). */
export const CLEAR_SEQUENCES = ['\x1b[2J', '\x1b[3J', '\x1bc'];

export interface WriteRecord {
  t: number;
  bytes: number;
  clear: boolean;
}

/** A terminal-sized stdout that keeps counts instead of the text. */
export class CountingStdout extends EventEmitter {
  readonly isTTY = true;
  columns: number;
  rows: number;
  readonly writes: WriteRecord[] = [];
  /** The last frame-sized write (for checks). */
  lastFrame = '';
  onWrite: ((text: string) => void) | undefined;

  constructor(columns: number, rows: number) {
    super();
    this.columns = columns;
    this.rows = rows;
  }

  write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const clear = CLEAR_SEQUENCES.some((s) => text.includes(s));
    this.writes.push({ t: performance.now(), bytes: Buffer.byteLength(text), clear });
    if (text.length > 32) this.lastFrame = text;
    this.onWrite?.(text);
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (cb) queueMicrotask(cb);
    return true;
  };
}

export interface FrameSample {
  /** When the task started (performance.now). */
  at: number;
  ms: number;
}

/** Times the tasks that write frames; install before the UI is imported. */
export class FrameTimer {
  readonly frames: FrameSample[] = [];
  /** Frame-sized writes made outside any timed task (e.g. from an input event). */
  untimed = 0;
  private span: { start: number; wrote: boolean } | undefined;
  private restore: (() => void) | undefined;

  /** Marks a frame-sized write. */
  wrote(): void {
    if (this.span) this.span.wrote = true;
    else this.untimed += 1;
  }

  install(): void {
    const origTimeout = globalThis.setTimeout;
    const origInterval = globalThis.setInterval;
    const wrap =
      (fn: (...a: unknown[]) => void) =>
      (...args: unknown[]): void => {
        const span = { start: performance.now(), wrote: false };
        const outer = this.span;
        this.span = span;
        try {
          fn(...args);
        } finally {
          queueMicrotask(() => {
            if (span.wrote)
              this.frames.push({ at: span.start, ms: performance.now() - span.start });
            if (this.span === span) this.span = outer;
          });
        }
      };
    const origImmediate = globalThis.setImmediate;
    const patch = <F extends (...a: never[]) => unknown>(orig: F): F =>
      Object.assign(
        ((fn: unknown, ...rest: unknown[]) =>
          typeof fn === 'function'
            ? (orig as unknown as (...a: unknown[]) => unknown)(
                wrap(fn as (...a: unknown[]) => void),
                ...rest,
              )
            : (orig as unknown as (...a: unknown[]) => unknown)(fn, ...rest)) as unknown as F,
        orig,
      );
    globalThis.setTimeout = patch(origTimeout);
    globalThis.setInterval = patch(origInterval);
    // React's scheduler runs passive effects (and the renders they cause) in setImmediate.
    globalThis.setImmediate = patch(origImmediate);
    this.restore = () => {
      globalThis.setTimeout = origTimeout;
      globalThis.setInterval = origInterval;
      globalThis.setImmediate = origImmediate;
    };
  }

  uninstall(): void {
    this.restore?.();
  }
}
