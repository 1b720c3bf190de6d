/**
 * The frame writer's scroll regions in a real terminal: frames of a scrolling pane go
 * through the writer (rows moved by DECSTBM with line feeds or reverse index, then the rows
 * still different written), the bytes are played into a tmux pane, and the pane must show
 * exactly the last frame. A model of the terminal could share our mistakes; tmux cannot.
 * Skipped without tmux, failed under CI without it (test/helpers/tmuxGuard.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FrameWriter } from '../../components/terminal/frameWriter.js';
import { scrollingFrames } from '../helpers/scrollingFrames.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { waitUntil } from '../helpers/waitFor.js';
import { plain } from '../helpers/waitForFrame.js';

const COLS = 100;
const ROWS = 30;
const socket = `cogito-scroll-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, '-u', ...args], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8' },
  });

class Recorder extends EventEmitter {
  columns = COLS;
  rows = ROWS;
  out = '';
  write(s: string): boolean {
    this.out += s;
    return true;
  }
}

describeWithTmux('scroll regions in a real terminal (tmux)', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-scroll-'));
  });
  afterAll(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('after every 20th of 120 frames, the pane shows exactly that frame', async () => {
    let sessions = 0;
    for (const seed of [11, 12, 13]) {
      const frames = scrollingFrames(seed, ROWS - 1, 120);
      const term = new Recorder();
      const writer = new FrameWriter(term);
      for (let f = 0; f < frames.length; f++) {
        writer.write(`${frames[f]!.join('\n')}\n`);
        if ((f + 1) % 20 !== 0) continue;
        const file = path.join(tmp, `s${seed}-${f}.bin`);
        fs.writeFileSync(file, term.out);
        const name = `s${sessions++}`;
        tmux(
          'new-session',
          '-d',
          '-x',
          `${COLS}`,
          '-y',
          `${ROWS}`,
          '-s',
          name,
          `cat ${file}; sleep 600`,
        );
        const want = frames[f]!.map((r) => plain(r).trimEnd());
        let seen: string[] = [];
        await waitUntil(
          () => {
            seen = tmux('capture-pane', '-p', '-t', name).split('\n').slice(0, want.length);
            return seen.map((r) => r.trimEnd()).join('\n') === want.join('\n');
          },
          `seed ${seed}, frame ${f + 1} on screen`,
          { timeoutMs: 10_000, intervalMs: 20, detail: () => seen.join('\n') },
        );
        tmux('kill-session', '-t', name);
      }
      expect(term.out).toContain('\x1bM'); // both directions were exercised
      // eslint-disable-next-line no-control-regex
      expect(term.out).toMatch(/\x1b\[\d+;\d+r/);
    }
  });
});
