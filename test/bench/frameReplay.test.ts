/**
 * The torn-frame check of bench/tornFrames.ts, tested bare: the screens rebuilt from the
 * frame writer's bytes, and a capture taken between two parts of a frame matching none.
 */
import { describe, expect, test } from 'vitest';
import { frameFaults, replayFrames, screenKey } from '../../bench/lib/frameReplay.js';
import { unescapeOutput } from '../../bench/lib/tmux.js';
import { BSU, ESU, diffRows, frameDiff } from '../../components/terminal/frameWriter.js';
import { scrollingFrames } from '../helpers/scrollingFrames.js';
import { plain } from '../helpers/waitForFrame.js';

const frame = (before: string[] | undefined, after: string[]): string =>
  BSU + diffRows(before, after) + ESU;

describe('replaying frames', () => {
  const a = ['status 1', 'hello', 'input'];
  const b = ['status 2', 'hello world', 'input'];
  const bytes = frame(undefined, a) + frame(a, b);

  test('each whole frame is a screen; a capture between two rows of a frame is none', async () => {
    const screens = await replayFrames(bytes, 20, 4);
    expect(screens.has(screenKey(a, 4))).toBe(true);
    expect(screens.has(screenKey(b, 4))).toBe(true);
    // The second frame's first row applied, its second not yet: half old, half new.
    expect(screens.has(screenKey(['status 2', 'hello', 'input'], 4))).toBe(false);
  });

  test('colours are not part of the text, and a wipe blanks every row', async () => {
    const coloured = `${BSU}\x1b[1;1H\x1b[1m● Paused\x1b[22m\x1b[K${ESU}`;
    const wiped = `${coloured}\x1b[2J${BSU}\x1b[2;1Hnew\x1b[K${ESU}`;
    const screens = await replayFrames(wiped, 20, 2);
    expect(screens.has('● Paused\n')).toBe(true);
    expect(screens.has('\nnew')).toBe(true);
  });
});

describe('replaying frames with rows the terminal moved', () => {
  test('every screen of a scrolling pane is rebuilt, in both directions', async () => {
    const frames = scrollingFrames(7, 20, 150);
    let bytes = '';
    let moved = 0;
    for (let i = 0; i < frames.length; i++) {
      const body =
        i === 0 ? diffRows(undefined, frames[0]!) : frameDiff(frames[i - 1]!, frames[i]!);
      if (body.includes('r\x1b[')) moved += 1;
      bytes += BSU + body + ESU;
    }
    expect(moved).toBeGreaterThan(30);
    const screens = await replayFrames(bytes, 100, 20);
    for (const f of frames)
      expect(
        screens.has(
          screenKey(
            f.map((r) => plain(r)),
            20,
          ),
        ),
      ).toBe(true);
  });
});

describe('the marks of a whole frame', () => {
  const rule = (title: string, ch = '─'): string => `${ch}${ch} ${title} `.padEnd(20, ch);
  const whole = [
    '● Paused │ x',
    rule('Tools'),
    rule('Input', '━'),
    '›  type',
    'Enter send · Ctrl+C quit',
  ];

  test('a whole frame has none of the faults, with a hint after quit or none', () => {
    expect(frameFaults(whole, 20)).toEqual([]);
    const detach = [...whole.slice(0, -1), 'Enter send · Ctrl+C quit · Ctrl+D detach'];
    expect(frameFaults(detach, 20)).toEqual([]);
    const cut = [...whole.slice(0, -1), 'Enter send · Ctrl+C qu'];
    expect(frameFaults(cut, 20)).toEqual(['no key hints on the last row']);
  });

  test('a rule cut mid-line, no status, no input box, no key hints: each is named', () => {
    const torn = ['', rule('Tools').slice(0, 12), '', ''];
    expect(frameFaults(torn, 20)).toEqual([
      'no status bar on row 1',
      'row 2: a pane rule 12 columns wide',
      'no input box',
      'no key hints on the last row',
    ]);
  });
});

test("tmux control mode's octal escapes come back as the bytes written", () => {
  const line = Buffer.from('\\033[1;1Hhi\\134 \\015\\012', 'latin1');
  expect(unescapeOutput(line).toString('latin1')).toBe('\x1b[1;1Hhi\\ \r\n');
});
