/**
 * The faster `Output.get()` (components/terminal/fastOutput.ts) must return exactly what
 * Ink's own returns for the same operations, frame after frame, with its caches shared
 * across frames and bounded.
 */
import { EventEmitter } from 'node:events';
import React, { useEffect } from 'react';
import chalk from 'chalk';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  clearFastOutputCaches,
  FAST_OUTPUT_LIMITS,
  fastOutputCacheSizes,
} from '../../components/terminal/fastOutput.js';
import {
  fastGet,
  fastOutputInstalled,
  InkOutput as Output,
  inkGet,
  installFastOutput,
  uninstallFastOutput,
} from '../../components/terminal/inkInternals.js';
import { openScreenSession } from '../../components/terminal/screenSession.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { loadHighlighter } from '../../components/markdown/highlightLoad.js';
import { makeMessage } from '../../src/core/messages.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';
import { mulberry32 } from '../helpers/rng.js';
import { replyUpdates } from '../helpers/replyParts.js';

type Rand = () => number;
const rng = mulberry32;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T,>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

const WORDS = ['the', 'report', 'a', 'x', '预算', '会议', '😀', '👍🏽', 'e\u0301', '│', '─┼─', '  '];
const STYLES: readonly [string, string][] = [
  ['\x1b[31m', '\x1b[39m'],
  ['\x1b[1m', '\x1b[22m'],
  ['\x1b[7m', '\x1b[27m'],
  ['\x1b[38;5;208m', '\x1b[39m'],
  ['\x1b[2m\x1b[3m', '\x1b[23m\x1b[22m'],
  ['\x1b[44m', '\x1b[49m'],
  ['\x1b]8;;https://example.com\x07', '\x1b]8;;\x07'],
  ['\x1b[4m', ''], // never closed: the style runs on
];

/** A text of 1–4 lines of words, some styled, some lines empty. */
function randomText(r: Rand): string {
  const lines: string[] = [];
  for (let l = int(r, 1, 4); l > 0; l--) {
    let line = '';
    for (let w = int(r, 0, 6); w > 0; w--) {
      const word = pick(r, WORDS);
      if (r() < 0.35) {
        const [open, close] = pick(r, STYLES);
        line += `${open}${word}${close}`;
      } else line += word;
      if (r() < 0.6) line += ' ';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

const TRANSFORMERS: ((s: string, i: number) => string)[] = [
  (s, i) => `${i}>${s}`,
  (s) => s.toUpperCase(),
  (s, i) => (i % 2 ? `\x1b[2m${s}\x1b[22m` : s),
  (s) => `\x1b[32m${s}\x1b[39m`,
];

const maybe = (r: Rand, n: number): number | undefined => (r() < 0.8 ? n : undefined);

/** Random writes inside random nested clips, partly or wholly off the clip and the grid. */
function randomOutput(r: Rand): Output {
  const width = int(r, 1, 30);
  const height = int(r, 1, 8);
  const out = new Output({ width, height });
  let depth = 0;
  for (let n = int(r, 1, 14); n > 0; n--) {
    const roll = r();
    if (roll < 0.15 && depth < 3) {
      const x1 = int(r, -2, width);
      const y1 = int(r, -2, height);
      out.clip({
        x1: maybe(r, x1),
        x2: maybe(r, x1 + int(r, 0, width)),
        y1: maybe(r, y1),
        y2: maybe(r, y1 + int(r, 0, height)),
      });
      depth++;
    } else if (roll < 0.22 && depth > 0) {
      out.unclip();
      depth--;
    } else {
      const transformers = TRANSFORMERS.filter(() => r() < 0.2);
      out.write(int(r, -3, width + 4), int(r, -3, height + 2), randomText(r), { transformers });
    }
  }
  return out;
}

describe('fastGet equals Ink’s get', () => {
  beforeAll(() => clearFastOutputCaches());

  test('on 3,000 random operation lists (the caches shared by all of them)', () => {
    const r = rng(15);
    for (let i = 0; i < 3_000; i++) {
      const out = randomOutput(r);
      const expected = inkGet.call(out);
      // Twice: the second answer comes from the row cache.
      expect(fastGet.call(out), `case ${i}`).toEqual(expected);
      expect(fastGet.call(out), `case ${i}, cached`).toEqual(expected);
    }
  });

  test('frame after frame, a changed row is never served from an earlier frame', () => {
    const r = rng(7);
    const texts = Array.from({ length: 6 }, () => randomText(r));
    for (let frame = 0; frame < 300; frame++) {
      // One text changes per frame, sometimes back to an earlier value; sometimes the width.
      texts[frame % texts.length] = r() < 0.3 ? texts[(frame + 1) % 6]! : randomText(r);
      const width = frame % 17 === 0 ? 12 : 20;
      const out = new Output({ width, height: 10 });
      out.write(0, 0, '╭──────╮', { transformers: [] });
      out.clip({ x1: 1, x2: width - 1, y1: 1, y2: 9 });
      texts.forEach((t, k) => out.write(1 + (k % 3), 1 + k, t, { transformers: [] }));
      out.unclip();
      out.write(width - 1, frame % 10, '│', { transformers: [] });
      expect(fastGet.call(out), `frame ${frame}`).toEqual(inkGet.call(out));
    }
  });

  test('the caches stay bounded after many distinct frames', () => {
    clearFastOutputCaches();
    for (let i = 0; i < 6_000; i++) {
      const out = new Output({ width: 40, height: 3 });
      out.clip({ x1: 0, x2: 30, y1: 0, y2: 3 });
      out.write(0, 0, `line ${i}\n\x1b[1mbold ${i}\x1b[22m\n宽 ${i}`, { transformers: [] });
      out.unclip();
      fastGet.call(out);
    }
    const sizes = fastOutputCacheSizes();
    for (const name of Object.keys(sizes) as (keyof typeof sizes)[]) {
      expect(sizes[name], name).toBeGreaterThan(0);
      expect(sizes[name], name).toBeLessThanOrEqual(2 * FAST_OUTPUT_LIMITS[name]);
    }
    // 18,000 distinct rows went through the row cache: it turned over and kept at most 4,000.
    expect(sizes.rows).toBeGreaterThanOrEqual(FAST_OUTPUT_LIMITS.rows);
  });
});

/** A line of text that finishes its tree once it has been shown. */
function Shown({ onShown }: { onShown(): void }): React.ReactElement {
  useEffect(() => {
    const t = setImmediate(onShown);
    return () => clearImmediate(t);
  }, [onShown]);
  return <Text>in the session</Text>;
}

describe('installed on Ink’s own Output', () => {
  afterEach(() => uninstallFastOutput());

  test('installing is idempotent and Ink’s render then uses fastGet', () => {
    uninstallFastOutput();
    expect(fastOutputInstalled()).toBe(false);
    expect(installFastOutput({})).toBe(true);
    expect(installFastOutput({})).toBe(true);
    expect(fastOutputInstalled()).toBe(true);
    clearFastOutputCaches();
    const r = render(<Text>only fastGet caches this row 31337</Text>);
    expect(r.lastFrame()).toBe('only fastGet caches this row 31337');
    expect(fastOutputCacheSizes().rows).toBeGreaterThan(0);
    r.unmount();
  });

  test('the screen session installs it before its first frame', async () => {
    uninstallFastOutput();
    const stdout = new FakeStdout([], { columns: 40, rows: 10 });
    const session = openScreenSession({
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
      proc: new EventEmitter(),
      describeCrash: (e) => String(e),
    });
    expect(fastOutputInstalled()).toBe(true);
    clearFastOutputCaches();
    await session.show<boolean>((finish) => <Shown onShown={() => finish(true)} />);
    session.end(0);
    expect(stdout.log.map((l) => l.data).join('')).toContain('in the session');
    expect(fastOutputCacheSizes().rows).toBeGreaterThan(0);
  });

  test('COGITO_INK_OUTPUT=ink keeps Ink’s own get', () => {
    uninstallFastOutput();
    expect(installFastOutput({ COGITO_INK_OUTPUT: 'ink' })).toBe(false);
    expect(fastOutputInstalled()).toBe(false);
  });
});

describe('real frames of the screen, compared with Ink’s get on every frame', () => {
  let h: Harness | undefined;
  const mismatches: string[] = [];
  let compared = 0;
  let styled = 0;
  const level = chalk.level;
  beforeAll(async () => {
    await loadHighlighter();
    // Colours on, so the frames carry the escape codes a terminal gets.
    chalk.level = 3;
    Output.prototype.get = function checked(this: Output) {
      const expected = inkGet.call(this);
      const actual = fastGet.call(this);
      compared++;
      if (expected.output.includes('\x1b[')) styled++;
      if (actual.output !== expected.output || actual.height !== expected.height)
        mismatches.push(`${JSON.stringify(expected.output)}\n≠\n${JSON.stringify(actual.output)}`);
      return actual;
    };
  });
  afterAll(() => {
    chalk.level = level;
    uninstallFastOutput();
  });
  afterEach(() => {
    h?.unmount();
    h = undefined;
  });

  const MD =
    '# Plan 计划\n\n**Bold** and *soft* with `code` and [a link](https://example.com).\n\n' +
    '```ts\nconst a: number = 1; // 预算\n```\n\n| 名前 | value | 😀 |\n|---|---:|---|\n' +
    '| 会议 | 12 | ok |\n| a very long cell that has to wrap somewhere | 3 | 👍🏽 |\n\n' +
    '- item one\n- item 二\n  1. nested\n\n> quote\n\n---\n\nend.';

  test('a Markdown reply streamed in pieces, then typed into and scrolled', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    c.emit({ type: 'message_added', message: makeMessage('user', 'show me 表') });
    h = await renderApp({ c, rows: 60 });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    const update = replyUpdates();
    for (let i = 0; i < MD.length; i += 9) {
      c.emit(update(MD.slice(i, i + 9)));
      // Each piece shown before the next: every partial table and fence is a frame.
      const seen = compared;
      await h.waitFor(() => compared > seen);
    }
    await h.waitFor((f) => f.includes('end.') && f.includes('Plan 计划'));
    c.emit({ type: 'message_added', message: makeMessage('assistant', MD) });
    await h.waitFor((f) => f.includes('Plan 计划') && !f.includes('▍'));
    h.type('hello 世界');
    await h.waitFor((f) => f.includes('hello 世界'));
    h.press('\x1b[5~', '\x1b[6~');
    h.rerender({ columns: 60, rows: 20 });
    await h.waitFor((f) => f.includes('end.') && f.split('\n').length <= 20);
    expect(compared).toBeGreaterThan(10);
    expect(styled).toBeGreaterThan(10);
    expect(mismatches).toEqual([]);
  });
});
