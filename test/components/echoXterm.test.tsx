/**
 * The keystroke echo on the live path, judged by xterm: the real App rendered by Ink into the
 * frame writer (as the screen session does), every byte fed to @xterm/headless. A key that
 * edits the input line is painted at once (the echo patch), and the frame Ink draws after it
 * leaves the terminal showing exactly that frame: wide CJK text, the cursor mid-line.
 */
import chalk from 'chalk';
import React from 'react';
import { render } from 'ink';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { App } from '../../components/App.js';
import { FrameWriter } from '../../components/terminal/frameWriter.js';
import { installFastOutput } from '../../components/terminal/inkInternals.js';
import { RowPainterContext } from '../../components/terminal/rowPainter.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { KEY } from '../helpers/renderApp.js';
import { waitFor } from '../helpers/waitForFrame.js';
import { screenText, xtermScreen } from '../helpers/xtermScreen.js';

let level: typeof chalk.level;
beforeAll(() => {
  level = chalk.level;
  chalk.level = 2;
});
afterAll(() => {
  chalk.level = level;
});

test('each echoed key shows at once, and the next frame leaves the screen equal to that frame', async () => {
  const COLS = 60;
  const ROWS = 16;
  installFastOutput({});
  const stdin = new FakeStdin();
  const stdout = new FakeStdout([], { columns: COLS, rows: ROWS });
  const writer = new FrameWriter(stdout);
  // Ink's frames as handed to the writer, to compare the terminal with the last one.
  const frames: string[] = [];
  const inner = writer.write;
  writer.write = (chunk, ...rest) => {
    frames.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return inner(chunk, ...rest);
  };
  const xt = xtermScreen(COLS, ROWS);
  let fed = 0;
  const feed = async (): Promise<void> => {
    const bytes = stdout.log
      .slice(fed)
      .map((l) => l.data)
      .join('');
    fed = stdout.log.length;
    await xt.write(bytes);
  };
  const lastFrame = (): string[] => frames.at(-1)!.replace(/\n$/, '').split('\n');
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const ink = render(
    <RowPainterContext.Provider value={writer}>
      <App controller={c} columns={COLS} rows={ROWS} workspace="/w" onExit={() => {}} />
    </RowPainterContext.Provider>,
    {
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: writer as unknown as NodeJS.WriteStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  try {
    await waitFor(() => stdin.listenerCount('readable') > 0, 'the input hook');
    await waitFor(() => frames.some((f) => f.includes('Type a message')), 'the first frame');
    await feed();
    expect(xt.lines()).toEqual(screenText(lastFrame(), ROWS));
    let echoed = 0;
    const keys = ['会', '议', ' ', 'a', '预', '算', KEY.left, KEY.left, 'é', '😀', KEY.backspace];
    for (const key of keys) {
      const seen = frames.length;
      const written = stdout.log.length;
      stdin.write(key);
      // The echo, if it painted, wrote before this returned: the terminal shows the key now.
      let echo: string[] | undefined;
      if (stdout.log.length > written && frames.length === seen) {
        echoed += 1;
        await feed();
        echo = xt.lines();
      }
      await waitFor(() => frames.length > seen, 'the frame for the key');
      await feed();
      const frame = screenText(lastFrame(), ROWS);
      expect(xt.lines(), `after ${JSON.stringify(key)}`).toEqual(frame);
      // The echo had already put the input row where that frame draws it, as it draws it.
      const input = frame.findIndex((l) => l.startsWith('›'));
      if (echo) expect(echo[input], `echo of ${JSON.stringify(key)}`).toBe(frame[input]);
    }
    expect(echoed).toBeGreaterThan(5);
    // What was typed, with two letters inserted mid-line and the second deleted again.
    expect(xt.lines()).toContain('› 会议 aé预算');
  } finally {
    ink.unmount();
    writer.close();
    xt.dispose();
  }
});
