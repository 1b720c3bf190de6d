import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { runTui, type TuiApp, type TuiDeps } from '../../components/runTui.js';
import {
  CLEAR_SCREEN,
  ENTER_ALT_SCREEN,
  LEAVE_ALT_SCREEN,
  MOUSE_OFF,
  MOUSE_ON,
  PASTE_OFF,
  PASTE_ON,
  SHOW_CURSOR,
} from '../../components/terminal/terminalGuard.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController, type FakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { displayWidth } from '../../components/text/wrap.js';
import { plain, waitFor } from '../helpers/waitForFrame.js';

const flags = NO_FLAGS;
const SECRET = 'sk-test-0123456789abcdef';

interface Rig {
  c: FakeController;
  stdin: FakeStdin;
  stdout: FakeStdout;
  stderr: FakeStderr;
  log: { stream: 'stdout' | 'stderr'; data: string }[];
  proc: EventEmitter;
  closed: () => number;
  run: Promise<number>;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function start(opts: { tty?: boolean; mouse?: boolean } = {}): Rig {
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const log: Rig['log'] = [];
  const stdin = new FakeStdin({ isTTY: opts.tty ?? true });
  const stdout = new FakeStdout(log, { isTTY: opts.tty ?? true });
  const stderr = new FakeStderr(log);
  const proc = new EventEmitter();
  let closed = 0;
  const agent = c;
  // The config holds a key, as the real one may: it must never reach the screen.
  const config = {
    workspace: '/work/notes',
    language: 'en' as const,
    apiKey: SECRET,
    ...(opts.mouse !== undefined ? { mouse: opts.mouse } : {}),
  };
  const app: TuiApp = {
    agent,
    config,
    warnings: ['recovered 2 lines of history'],
    close: async () => void closed++,
  };
  const deps: TuiDeps = {
    createApp: async () => ({ ok: true, app }),
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    env: {},
    proc,
  };
  return { c, stdin, stdout, stderr, log, proc, closed: () => closed, run: runTui(flags, deps) };
}

const ready = (r: Rig): Promise<void> =>
  waitFor(
    () => r.stdin.listenerCount('readable') > 0 && r.stdout.text().includes('Your turn'),
    'the screen to be up',
  );

describe('runTui', () => {
  test('a failed start prints the problem and its exit code without touching the screen', async () => {
    const stdout = new FakeStdout();
    const stderr = new FakeStderr();
    const code = await runTui(flags, {
      createApp: async () => ({
        ok: false,
        message: 'config.json: "thinkIntervalMs" must be a number',
        exitCode: 2,
      }),
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WritableStream,
      proc: new EventEmitter(),
    });
    expect(code).toBe(2);
    expect(stderr.text()).toBe('config.json: "thinkIntervalMs" must be a number\n');
    expect(stdout.text()).toBe('');
  });

  test('without a terminal it says to use print mode', async () => {
    const r = start({ tty: false });
    expect(await r.run).toBe(2);
    expect(r.stderr.text()).toContain('cogito -p "PROMPT"');
    expect(r.stdout.text()).toBe('');
    expect(r.closed()).toBe(1);
  });

  test('quitting restores the terminal once, stops the loop and closes the app', async () => {
    const r = start();
    await ready(r);
    // The alternate screen, cursor home, bracketed paste on; all undone once at the end.
    expect(r.stdout.text().startsWith(ENTER_ALT_SCREEN + PASTE_ON)).toBe(true);
    await waitFor(
      () => r.stdout.text().includes('recovered 2 lines of history'),
      'the start-up warning',
    );
    for (const ch of 'exit') r.stdin.write(ch);
    r.stdin.write('\r');
    expect(await r.run).toBe(0);
    const out = r.stdout.text();
    expect(count(out, ENTER_ALT_SCREEN)).toBe(1);
    expect(count(out, LEAVE_ALT_SCREEN)).toBe(1);
    expect(count(out, PASTE_ON)).toBe(1);
    expect(count(out, PASTE_OFF)).toBe(1);
    expect(out.indexOf(PASTE_OFF)).toBeLessThan(out.indexOf(LEAVE_ALT_SCREEN));
    // Nothing but cursor-visibility codes may follow the restore (no stray frame lines).
    expect(out.slice(out.indexOf(LEAVE_ALT_SCREEN)).split(SHOW_CURSOR).join('')).toBe(
      LEAVE_ALT_SCREEN,
    );
    expect(out).not.toContain(SECRET);
    expect(r.c.methods()).toEqual(['start', 'stop']);
    expect(r.closed()).toBe(1);
    expect(r.stdin.rawMode).toBe(false);
    for (const event of [
      'SIGTERM',
      'SIGHUP',
      'SIGINT',
      'uncaughtException',
      'unhandledRejection',
      'exit',
    ]) {
      expect(r.proc.listenerCount(event)).toBe(0);
    }
  });

  const exits: [string, (r: Rig) => void][] = [
    ['quit', (r) => r.stdin.write('\x03')],
    ['SIGTERM', (r) => r.proc.emit('SIGTERM')],
    ['a crash', (r) => r.proc.emit('uncaughtException', new Error('boom'))],
  ];
  for (const [how, end] of exits) {
    test(`mouse reporting is on in the screen and off again after ${how}`, async () => {
      const r = start();
      await ready(r);
      expect(count(r.stdout.text(), MOUSE_ON)).toBe(1);
      end(r);
      await r.run;
      const out = r.stdout.text();
      expect(count(out, MOUSE_OFF)).toBe(1);
      expect(out.lastIndexOf(MOUSE_OFF)).toBeGreaterThan(out.lastIndexOf(MOUSE_ON));
      expect(out.indexOf(MOUSE_OFF)).toBeLessThan(out.indexOf(LEAVE_ALT_SCREEN));
    });
  }

  test('"mouse": false leaves the mouse to the terminal; Ctrl+S turns the wheel on and off', async () => {
    const r = start({ mouse: false });
    await ready(r);
    expect(r.stdout.text()).not.toContain(MOUSE_ON);
    r.stdin.write('\x13');
    await waitFor(() => r.stdout.text().includes(MOUSE_ON), 'mouse reporting on');
    await waitFor(() => plain(r.stdout.text()).includes('Mouse wheel on'), 'the notice');
    r.stdin.write('\x13');
    await waitFor(() => r.stdout.text().includes(MOUSE_OFF), 'mouse reporting off');
    r.stdin.write('\x03');
    expect(await r.run).toBe(0);
    expect(count(r.stdout.text(), MOUSE_OFF)).toBe(1);
  });

  test('Ctrl+C when idle quits; Ctrl+L clears the terminal', async () => {
    const r = start();
    await ready(r);
    r.stdin.write('\x0c');
    await waitFor(() => r.stdout.text().includes(CLEAR_SCREEN), 'the clear-screen sequence');
    // The user's shell scrollback is not wiped.
    expect(r.stdout.text()).not.toContain('\x1b[3J');
    r.stdin.write('\x03');
    expect(await r.run).toBe(0);
    expect(count(r.stdout.text(), LEAVE_ALT_SCREEN)).toBe(1);
  });

  test('after a resize, the first frame written already has the new size', async () => {
    const r = start();
    await ready(r);
    const from = r.log.length;
    r.stdout.columns = 50;
    r.stdout.rows = 15;
    r.stdout.emit('resize');
    const frames = (): string[] =>
      r.log
        .map((l) => l.data)
        .slice(from)
        .filter((f) => plain(f).includes('Conversation'));
    await waitFor(() => frames().length > 0, 'a frame after the resize');
    // Each row of a frame is placed with an absolute move: ESC[row;1H, then its text.
    const rows = [
      // eslint-disable-next-line no-control-regex
      ...frames()[0]!.matchAll(/\x1b\[(\d+);1H([^\x1b]*(?:\x1b\[(?!\d+;1H)[^\x1b]*)*)/g),
    ];
    expect(rows.length).toBeGreaterThan(0);
    for (const [, row, text] of rows) {
      expect(Number(row)).toBeLessThanOrEqual(14);
      expect(displayWidth(plain(text!))).toBeLessThanOrEqual(50);
    }
    r.stdin.write('\x03');
    expect(await r.run).toBe(0);
    expect(r.stdout.listenerCount('resize')).toBe(0);
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    test(`${signal} restores the terminal once and exits with ${code}`, async () => {
      const r = start();
      await ready(r);
      r.proc.emit(signal);
      r.proc.emit(signal);
      expect(await r.run).toBe(code);
      expect(count(r.stdout.text(), LEAVE_ALT_SCREEN)).toBe(1);
      expect(r.closed()).toBe(1);
    });
  }

  test('a crash restores the terminal first, then prints the error, exit code 1', async () => {
    const r = start();
    await ready(r);
    r.proc.emit('uncaughtException', new Error('boom in a timer'));
    r.proc.emit('exit');
    expect(await r.run).toBe(1);
    const leave = r.log.findIndex((l) => l.data.includes(LEAVE_ALT_SCREEN));
    const err = r.log.findIndex((l) => l.stream === 'stderr' && l.data.includes('boom in a timer'));
    expect(leave).toBeGreaterThanOrEqual(0);
    expect(err).toBeGreaterThan(leave);
    expect(count(r.stdout.text(), LEAVE_ALT_SCREEN)).toBe(1);
  });

  test('an unhandled rejection is handled the same way', async () => {
    const r = start();
    await ready(r);
    r.proc.emit('unhandledRejection', new Error('lost promise'));
    expect(await r.run).toBe(1);
    expect(r.stderr.text()).toContain('lost promise');
    expect(count(r.stdout.text(), LEAVE_ALT_SCREEN)).toBe(1);
  });
});
