/**
 * The renderer judged by an independent terminal (@xterm/headless, test/helpers/xtermScreen.ts):
 * the frame writer, the scroll-region diff and the echo patch write bytes; the emulator parses
 * them; after every step its screen must show exactly the frame's text. Frames are random and
 * seeded (a failure names its seed): wide CJK characters, styles, rows up to the full width,
 * a pane that scrolls both ways (the scroll-region shift), frames that shrink, and resizes.
 */
import { EventEmitter } from 'node:events';
import stringWidth from 'string-width';
import { afterEach, describe, expect, test } from 'vitest';
import {
  BSU,
  ESU,
  FrameWriter,
  diffRows,
  frameDiff,
} from '../../components/terminal/frameWriter.js';
import { encodeRow } from '../../components/terminal/inkInternals.js';
import { mulberry32 } from '../helpers/rng.js';
import { scrollingFrames } from '../helpers/scrollingFrames.js';
import { screenText, xtermScreen, type XtermScreen } from '../helpers/xtermScreen.js';

type Rand = () => number;
const WORDS = ['alpha', '预算', '会议', 'x', '墨水表格', 'report', '│', '😀', 'e\u0301', '  '];
const STYLES: readonly [string, string][] = [
  ['\x1b[1m', '\x1b[22m'],
  ['\x1b[36m', '\x1b[39m'],
  ['\x1b[7m', '\x1b[27m'],
  ['\x1b[44m', '\x1b[49m'],
  ['\x1b[38;5;208m', '\x1b[39m'],
];

/** A row of words, some styled, at most `width` columns wide (sometimes exactly that wide). */
function randomRow(r: Rand, width: number): string {
  let row = '';
  let used = 0;
  const target = r() < 0.2 ? width : Math.floor(r() * width);
  while (used < target) {
    const word = WORDS[Math.floor(r() * WORDS.length)]! + (r() < 0.6 ? ' ' : '');
    const w = stringWidth(word);
    if (used + w > width) {
      // Fill to the edge with narrow text, so full-width rows occur (the last column written).
      row += '.'.repeat(width - used);
      break;
    }
    const style = r() < 0.3 ? STYLES[Math.floor(r() * STYLES.length)] : undefined;
    row += style ? `${style[0]}${word}${style[1]}` : word;
    used += w;
  }
  return row;
}

/** The next frame: mostly small edits of `last`, sometimes a new screen or fewer rows. */
function nextFrame(r: Rand, last: readonly string[], width: number, height: number): string[] {
  const roll = r();
  if (roll < 0.1 || last.length === 0)
    return Array.from({ length: height }, () => randomRow(r, width));
  if (roll < 0.15) return last.slice(0, Math.max(1, Math.floor(r() * height)));
  const next = Array.from({ length: height }, (_, i) => last[i] ?? randomRow(r, width));
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--)
    next[Math.floor(r() * height)] = randomRow(r, width);
  return next;
}

/** The real terminal's side of a frame writer: its size, its resize event, its bytes. */
class Terminal extends EventEmitter {
  bytes = '';
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.bytes += chunk;
    return true;
  }
  take(): string {
    const out = this.bytes;
    this.bytes = '';
    return out;
  }
}

const open: XtermScreen[] = [];
function screen(columns: number, rows: number): XtermScreen {
  const s = xtermScreen(columns, rows);
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** Ink's frame as debug mode hands it over: the rows joined, ending in a newline. */
const inkFrame = (rows: readonly string[]): string => `${rows.join('\n')}\n`;

describe('the frame writer, against xterm', () => {
  test('after any sequence of frames, with scrolling panes and resizes, the screen is the last frame', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = mulberry32(seed);
      let cols = 80;
      let rows = 24;
      const term = new Terminal(cols, rows);
      const xt = screen(cols, rows);
      const writer = new FrameWriter(term);
      let last: string[] = [];
      let shifts = 0;
      for (let step = 0; step < 120; step++) {
        let frames: string[][];
        if (step % 40 === 39) {
          // A resize: the terminal changes first, then the writer hears of it.
          cols = 40 + Math.floor(r() * 60);
          rows = 8 + Math.floor(r() * 20);
          term.columns = cols;
          term.rows = rows;
          xt.resize(cols, rows);
          term.emit('resize');
          last = [];
        }
        if (r() < 0.3) {
          // A run of frames where a pane scrolls (up as lines arrive, both ways as the user
          // scrolls): the writer moves those rows with a scroll region.
          frames = scrollingFrames(seed * 1000 + step, rows - 1, 8).map((f) =>
            f.map((row) => (stringWidth(row) > cols ? randomRow(r, cols) : row)),
          );
        } else frames = [nextFrame(r, last, cols, rows - 1)];
        for (const frame of frames) {
          writer.write(inkFrame(frame));
          const bytes = term.take();
          if (bytes.includes('r\x1b[')) shifts += 1;
          await xt.write(bytes);
          expect(xt.lines(), `seed ${seed}, step ${step}`).toEqual(screenText(frame, rows));
          last = frame;
        }
      }
      expect(shifts, `seed ${seed}: frames that used a scroll region`).toBeGreaterThan(3);
      writer.close();
    }
  });

  test('a wipe behind the writer’s back (Ctrl+L) is repainted whole by the next frame', async () => {
    const term = new Terminal(30, 6);
    const xt = screen(30, 6);
    const writer = new FrameWriter(term);
    const frame = ['status 会议', 'one', 'two', 'input ›', 'hints'];
    writer.write(inkFrame(frame));
    await xt.write(term.take());
    await xt.write('\x1b[2J');
    writer.invalidate();
    writer.write(inkFrame(frame));
    await xt.write(term.take());
    expect(xt.lines()).toEqual(screenText(frame, 6));
  });
});

describe('the scroll-region diff, against xterm', () => {
  test('over many scrolling frames, each diff brings the screen to exactly the next frame', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const frames = scrollingFrames(seed, 30, 200);
      const xt = screen(100, 30);
      await xt.write(diffRows(undefined, frames[0]!));
      let moved = 0;
      for (let i = 1; i < frames.length; i++) {
        const bytes = frameDiff(frames[i - 1]!, frames[i]!);
        if (bytes.includes('r\x1b[')) moved += 1;
        await xt.write(BSU + bytes + ESU);
        expect(xt.lines(), `seed ${seed}, frame ${i}`).toEqual(screenText(frames[i]!, 30));
      }
      expect(moved).toBeGreaterThan(50);
    }
  });

  test('a region scrolled up and one scrolled down leave the rows outside it alone', async () => {
    const pane = (from: number): string[] =>
      Array.from({ length: 10 }, (_, i) => `line ${from + i} 预算 with enough text to move`);
    const xt = screen(60, 13);
    const a = ['status', ...pane(0), 'input'];
    const b = ['status', ...pane(2), 'input'];
    const c = ['status', ...pane(1), 'input'];
    await xt.write(diffRows(undefined, a));
    await xt.write(frameDiff(a, b));
    expect(xt.lines()).toEqual(screenText(b, 13));
    await xt.write(frameDiff(b, c));
    expect(xt.lines()).toEqual(screenText(c, 13));
  });
});

describe('the echo patch, against xterm', () => {
  test('a patch shows at once, and the next frame leaves the screen equal to that frame', async () => {
    const cols = 50;
    const rows = 12;
    const r = mulberry32(42);
    const term = new Terminal(cols, rows);
    const xt = screen(cols, rows);
    const writer = new FrameWriter(term);
    const typed = ['', '会', '会议', '会议 a', '会议 ab😀', '会议 ab😀 预算', 'x'];
    let frame = nextFrame(r, [], cols, rows - 1);
    let painted = 0;
    for (let step = 0; step < 200; step++) {
      writer.write(inkFrame(frame));
      await xt.write(term.take());
      expect(xt.lines(), `frame ${step}`).toEqual(screenText(frame, rows));
      // A key edits the input line (two rows near the bottom), encoded as Ink encodes rows.
      const top = rows - 4;
      const text = typed[step % typed.length]!;
      const after = [
        encodeRow(`\x1b[1m› \x1b[22m${text}\x1b[7m \x1b[27m`, cols)!,
        encodeRow(`\x1b[2m${text.length} typed\x1b[22m`, cols)!,
      ];
      const before = frame.slice(top, top + 2);
      // Half the time the rows on screen are not what the echo expects (or the frame is too
      // short to hold them): nothing is painted.
      const stale = r() < 0.5 || frame.length < top + 2;
      const ok = writer.patch(top, stale ? ['not', 'these'] : before, after);
      expect(ok).toBe(!stale);
      const bytes = term.take();
      if (stale) expect(bytes).toBe('');
      await xt.write(bytes);
      const expected = ok ? [...frame.slice(0, top), ...after, ...frame.slice(top + 2)] : frame;
      expect(xt.lines(), `patch ${step}`).toEqual(screenText(expected, rows));
      if (ok) painted += 1;
      // The frame that follows draws the same rows (or moved on), plus whatever else changed.
      frame = nextFrame(r, r() < 0.7 ? expected : frame, cols, rows - 1);
    }
    expect(painted).toBeGreaterThan(50);
  });
});
