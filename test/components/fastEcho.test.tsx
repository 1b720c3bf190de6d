/**
 * The keystroke echo (components/screen/useFastEcho.ts): an edit of the input line is
 * painted over the rows the last frame shows, before React renders the screen again, with
 * rows byte for byte equal to the frame Ink then draws, so that frame has nothing to write
 * for them. Colours are on, so the escape codes are compared too.
 */
import chalk from 'chalk';
import React, { Profiler } from 'react';
import { render } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { App } from '../../components/App.js';
import { RowPainterContext, type RowPainter } from '../../components/terminal/rowPainter.js';
import { openScreenSession } from '../../components/terminal/screenSession.js';
import { createFakeController, type FakeController } from '../helpers/fakeController.js';
import { fakeSessionTerminal } from '../helpers/fakeTerminal.js';
import { KEY } from '../helpers/renderApp.js';
import { plain, waitFor, waitForFrame } from '../helpers/waitForFrame.js';

// eslint-disable-next-line no-control-regex
const ROW_MOVE = /\x1b\[\d+;1H/g;

let level: typeof chalk.level;
beforeAll(() => {
  level = chalk.level;
  chalk.level = 2;
});
afterAll(() => {
  chalk.level = level;
});

interface Patch {
  top: number;
  before: readonly string[];
  after: readonly string[];
  /** The rows matched the last frame (so the painter painted). */
  matched: boolean;
  /** Frames Ink had written when the patch came. */
  framesThen: number;
}

interface Screen {
  c: FakeController;
  patches: Patch[];
  frames(): string[];
  last(): string;
  press(...keys: string[]): void;
  unmount(): void;
}

/** The real App under ink-testing-library, with a painter that checks rows against its frames. */
async function start(columns = 100, rows = 30, c = createFakeController()): Promise<Screen> {
  const patches: Patch[] = [];
  const ink: { r?: ReturnType<typeof render> } = {};
  // The screen as the terminal would show it: Ink's last frame, with the rows painted since.
  let screen: string[] = [];
  let framesSeen = -1;
  const onScreen = (): string[] => {
    const frames = ink.r?.frames ?? [];
    if (frames.length !== framesSeen) {
      framesSeen = frames.length;
      screen = (frames.at(-1) ?? '').split('\n');
    }
    return screen;
  };
  const painter: RowPainter = {
    patch(top, before, after) {
      const shown = onScreen();
      const matched = before.every((row, i) => shown[top + i] === row);
      if (matched) after.forEach((row, i) => (shown[top + i] = row));
      patches.push({ top, before, after, matched, framesThen: ink.r?.frames.length ?? 0 });
      return matched;
    },
  };
  const r = render(
    <RowPainterContext.Provider value={painter}>
      <App controller={c} columns={columns} rows={rows} workspace="/w" onExit={() => {}} />
    </RowPainterContext.Provider>,
  );
  ink.r = r;
  await waitFor(() => r.stdin.listenerCount('readable') > 0, 'the input hook');
  await waitForFrame(r.lastFrame, (f) => f.includes('›'));
  return {
    c,
    patches,
    frames: () => r.frames,
    last: () => r.lastFrame() ?? '',
    press: (...keys) => keys.forEach((k) => r.stdin.write(k)),
    unmount: () => r.unmount(),
  };
}

let s: Screen | undefined;
afterEach(() => {
  s?.unmount();
  s = undefined;
});

describe('the keystroke echo', () => {
  test('an edit is painted over the rows on screen before React draws the next frame', async () => {
    s = await start();
    const framesBefore = s.frames().length;
    s.press('h');
    expect(s.patches).toHaveLength(1);
    const p = s.patches[0]!;
    expect(p.matched).toBe(true);
    expect(p.framesThen).toBe(framesBefore);
    expect(plain(p.after[0])).toBe('› h ');
    // The frame Ink draws next has exactly the painted rows where the box is.
    await waitForFrame(s.last, (f) => f.includes('› h'));
    expect(
      s
        .last()
        .split('\n')
        .slice(p.top, p.top + p.after.length),
    ).toEqual(p.after);
  });

  test('painted rows equal Ink’s rows for wide text, the cursor mid-line and the placeholder', async () => {
    s = await start();
    const steps: [string[], RegExp][] = [
      [['h', 'é', 'l', '世', '界', '👍'], /› hél世界👍/],
      [[KEY.left, KEY.left, KEY.left], /› hél世界👍/],
      [['x'], /› hélx世界👍/],
      [[KEY.backspace], /› hél世界👍/],
      [[KEY.ctrl('u')], /Type a message/],
      [['a'], /› a/],
    ];
    for (const [keys, line] of steps) {
      const from = s.patches.length;
      for (const key of keys) {
        s.press(key);
        await waitFor(() => s!.patches.length > from, 'a patch for the key');
      }
      for (const p of s.patches.slice(from)) expect(p.matched).toBe(true);
      // The frame Ink draws next has the last painted rows where the box is.
      const p = s.patches.at(-1)!;
      const boxRows = (): string =>
        JSON.stringify(
          s!
            .last()
            .split('\n')
            .slice(p.top, p.top + p.after.length),
        );
      await waitFor(() => boxRows() === JSON.stringify(p.after), `the frame with ${line}`);
      expect(plain(s.last())).toMatch(line);
    }
  });

  test('the box is found in other layouts: a notice line, a small and a large terminal', async () => {
    for (const [cols, rows] of [
      [40, 9],
      [160, 50],
      [100, 30],
    ] as const) {
      const c = createFakeController({ machine: 'AWAITING_INPUT' });
      s = await start(cols, rows, c);
      if (cols === 100) {
        c.emit({ type: 'error', error: { kind: 'network', message: 'connection refused' } });
        await waitForFrame(s.last, (f) => f.split('\n')[1] === 'connection refused');
      }
      s.press('q');
      expect(s.patches.map((p) => p.matched)).toEqual([true]);
      s.unmount();
      s = undefined;
    }
  });

  test('an edit that moves the layout (a new row) waits for the frame', async () => {
    s = await start(40, 30);
    const long = 'x'.repeat(37);
    s.press(long); // one read: still one row (37 of the 37 columns the text has at 40)
    await waitForFrame(s.last, (f) => f.includes(`› ${long}`));
    const painted = s.patches.length;
    s.press('y'); // the 38th column: the text now needs a second row
    await waitForFrame(s.last, (f) => f.includes('  y'));
    expect(s.patches).toHaveLength(painted);
  });
});

test('a line of several rows is painted whole, the cursor on its second row', async () => {
  s = await start();
  s.press('first', KEY.altEnter); // a new row: the layout moves, the frame draws it
  await waitForFrame(s.last, (f) => {
    const rows = f.split('\n');
    const at = rows.findIndex((r) => r.startsWith('› first'));
    return at !== -1 && rows[at + 1]?.startsWith('  ') === true && !rows[at + 1]!.includes('Enter');
  });
  const from = s.patches.length;
  s.press('x');
  await waitFor(() => s!.patches.length > from, 'the patch for x');
  const p = s.patches.at(-1)!;
  expect(p.matched).toBe(true);
  expect(p.after.map((r) => plain(r).trimEnd())).toEqual(['› first', '  x']);
  const boxRows = (): string =>
    JSON.stringify(
      s!
        .last()
        .split('\n')
        .slice(p.top, p.top + p.after.length),
    );
  await waitFor(() => boxRows() === JSON.stringify(p.after), 'the frame with both rows');
});

describe('the keystroke echo through the real terminal session', () => {
  test('each key reaches the terminal as one row, and its frame does not write it again', async () => {
    const { io, stdin, stdout } = fakeSessionTerminal(100, 30);
    const session = openScreenSession(io);
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    let commits = 0;
    void session.show(() => (
      <Profiler id="app" onRender={() => (commits += 1)}>
        <App controller={c} workspace="/w" onExit={() => {}} />
      </Profiler>
    ));
    await waitFor(() => stdin.listenerCount('readable') > 0, 'the input hook');
    await waitFor(() => plain(stdout.text()).includes('Type a message'), 'the first frame');
    const HINT_ROW = '\x1b[29;1H'; // the last row of the 30-row frame
    let typed = '';
    for (const ch of 'abc') {
      const from = stdout.log.length;
      const committed = commits;
      stdin.write(ch);
      typed += ch;
      // Written before this call returned: ahead of any frame React would render for it.
      const first = stdout.log[from]?.data ?? '';
      expect(plain(first)).toContain(`› ${typed}`);
      expect(first.match(ROW_MOVE)).toHaveLength(1);
      const [moveToRow] = first.match(ROW_MOVE)!;
      if (ch === 'a') {
        // The rest of the screen follows with the next frame, not at once: the key hints
        // (they change once the line has text) are not written in this turn of the loop…
        await new Promise((r) => setImmediate(r));
        expect(stdout.log.slice(from).some((l) => l.data.includes(HINT_ROW))).toBe(false);
        await waitFor(
          () => stdout.log.slice(from).some((l) => l.data.includes(HINT_ROW)),
          'the key hints to follow',
        );
      }
      // …and the frame that shows the key has nothing to write on the input row.
      await waitFor(() => commits > committed, 'the frame for the key');
      const later = stdout.log.slice(from + 1).map((l) => l.data);
      for (const w of later) expect(w).not.toContain(moveToRow);
    }
    // A key the echo does not paint (Tab moves the focus) is drawn at once: the input rule
    // loses its highlight in this turn of the loop.
    const from = stdout.log.length;
    stdin.write(KEY.tab);
    await new Promise((r) => setImmediate(r));
    expect(
      plain(
        stdout.log
          .slice(from)
          .map((l) => l.data)
          .join(''),
      ),
    ).toContain('── Input');
    session.end(0);
  });
});
