/**
 * The whole path from Ink to the terminal (openScreenSession → Ink → FrameWriter → stdout): each
 * frame reaches the terminal as one write inside synchronized-output markers, however big
 * it is, and nothing else writes rows. A frame in several writes is what a terminal can show
 * half done (the torn frames of issue #15).
 */
import React, { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { describe, expect, test } from 'vitest';
import { BSU, ESU } from '../../components/terminal/frameWriter.js';
import { openScreenSession } from '../../components/terminal/screenSession.js';
import { fakeSessionTerminal } from '../helpers/fakeTerminal.js';

const COLS = 120;
const ROWS = 40;

/** Redraws every row `ticks` times, one state change per macrotask, then finishes. */
function Churn({ ticks, onDone }: { ticks: number; onDone(): void }): React.ReactElement {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (n >= ticks) {
      onDone();
      return;
    }
    const t = setImmediate(() => setN(n + 1));
    return () => clearImmediate(t);
  }, [n, ticks, onDone]);
  return (
    <Box flexDirection="column">
      {Array.from({ length: ROWS - 1 }, (_, r) => (
        <Text key={r} color={r % 2 ? 'green' : 'red'}>
          {`${n}·${r} `.repeat(COLS).slice(0, COLS)}
        </Text>
      ))}
    </Box>
  );
}

const terminal = () => fakeSessionTerminal(COLS, ROWS);

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]/g;

describe('frames on their way to the terminal', () => {
  test('every frame Ink renders is one write between the sync markers, large ones too', async () => {
    const { io, stdout } = terminal();
    const session = openScreenSession(io);
    const shown = await session.show<boolean>((finish) => (
      <Churn ticks={10} onDone={() => finish(true)} />
    ));
    session.end(0);
    expect(shown).toEqual({ ended: false, value: true });
    const writes = stdout.log.map((l) => l.data);
    const frames = writes.filter((w) => w.includes(BSU));
    expect(frames.length).toBeGreaterThanOrEqual(10);
    for (const f of frames) {
      expect(f.startsWith(BSU)).toBe(true);
      expect(f.endsWith(ESU)).toBe(true);
      expect(f.indexOf(BSU, 1)).toBe(-1);
      expect(f.indexOf(ESU)).toBe(f.length - ESU.length);
    }
    // Every row changes each tick: most frames are larger than a terminal reads at once
    // (tmux: 4 KB) and are still one write.
    expect(frames.filter((f) => Buffer.byteLength(f) > 4096).length).toBeGreaterThanOrEqual(8);
    // Outside the frames only modes are written (screen, paste, cursor): never a row's text.
    for (const w of writes.filter((x) => !x.includes(BSU))) expect(w.replace(ESCAPES, '')).toBe('');
  });

  test('raw mode is on from the moment the screen opens, before the first frame', () => {
    const { io, stdin, stdout } = terminal();
    const session = openScreenSession(io);
    // A key typed now must not be echoed by the terminal onto the screen.
    expect(stdin.rawMode).toBe(true);
    expect(stdout.text()).not.toContain(BSU);
    session.end(0);
    expect(stdin.rawMode).toBe(false);
  });
});
