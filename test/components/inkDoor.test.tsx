/**
 * The one door into Ink's internals (components/terminal/inkInternals.ts): on the Ink it was
 * written for, the fast output is installed and rows are encoded as Ink encodes them; on any
 * other version (injected here, as a bump of Ink would read it), nothing private is used and
 * the screen says so in a notice line.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runTui, type TuiApp } from '../../components/runTui.js';
import { MOUSE_ON, PASTE_ON } from '../../components/terminal/terminalGuard.js';
import {
  checkInk,
  encodeRow,
  fastOutputInstalled,
  inkDoor,
  inkInputEvents,
  inkNotice,
  installFastOutput,
  uninstallFastOutput,
  type InkDoor,
} from '../../components/terminal/inkInternals.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { plain, waitFor } from '../helpers/waitForFrame.js';

/** Ink's version as its package.json on disk says (the exports map hides the file: walk up). */
function inkVersionOnDisk(): string {
  const entry = createRequire(import.meta.url).resolve('ink');
  let dir = path.dirname(entry);
  while (path.basename(dir) !== 'ink') dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

afterEach(() => uninstallFastOutput());

describe('the version guard', () => {
  test('the installed Ink is the one the door was written for, and it is open', () => {
    const door = inkDoor();
    expect(door.version).toBe(inkVersionOnDisk());
    expect(door.supported).toBe(true);
    expect(inkNotice(door, 'en')).toBeUndefined();
  });

  test('patch releases of 6.8 pass; any other version, or none, shuts the door', () => {
    expect(checkInk('6.8.0').supported).toBe(true);
    expect(checkInk('6.8.7').supported).toBe(true);
    for (const other of ['7.0.0', '6.9.0', '6.7.2', '5.8.0', '16.8.0', 'latest', '', undefined])
      expect(checkInk(other).supported, String(other)).toBe(false);
  });

  test('another version: no prototype patch, no encoded rows, no raw key events', () => {
    const door = checkInk('7.0.0');
    uninstallFastOutput();
    expect(installFastOutput({}, door)).toBe(false);
    expect(fastOutputInstalled()).toBe(false);
    expect(encodeRow('\x1b[1mbold\x1b[22m', 10, door)).toBeUndefined();
    const stdin = { internal_eventEmitter: new EventEmitter() };
    expect(inkInputEvents(stdin, door)).toBeUndefined();
    // The real door hands out the same three things.
    expect(installFastOutput({})).toBe(true);
    expect(fastOutputInstalled()).toBe(true);
    expect(encodeRow('\x1b[1mbold\x1b[22m', 10)).toContain('bold');
    expect(inkInputEvents(stdin)).toBe(stdin.internal_eventEmitter);
  });

  test('the notice names the version found, the one expected and the fix, in both languages', () => {
    const door = checkInk('7.0.0');
    const en = inkNotice(door, 'en')!;
    expect(en).toContain('Ink 7.0.0');
    expect(en).toContain('6.8.x');
    expect(en).toContain('Install ink@6.8.x');
    const zh = inkNotice(door, 'zh')!;
    expect(zh).toContain('Ink 7.0.0');
    expect(zh).toContain('ink@6.8.x');
    expect(zh).not.toBe(en);
  });
});

/** The real screen through runTui, with `door` as the Ink it finds. */
function startScreen(door?: InkDoor): {
  stdin: FakeStdin;
  stdout: FakeStdout;
  run: Promise<number>;
} {
  const c = createFakeController({ machine: 'AWAITING_INPUT' });
  const agent = Object.assign(c, {
    notice: (text: string, level: 'info' | 'warn' = 'info') =>
      c.emit({ type: 'notice', level, text }),
  });
  const app: TuiApp = {
    agent,
    config: { workspace: '/work/notes', language: 'en' },
    warnings: [],
    close: async () => {},
  };
  const stdin = new FakeStdin({ isTTY: true });
  const stdout = new FakeStdout([], { isTTY: true, columns: 200, rows: 30 });
  const run = runTui(NO_FLAGS, {
    createApp: async () => ({ ok: true, app }),
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
    env: {},
    proc: new EventEmitter(),
    ...(door ? { inkDoor: door } : {}),
  });
  return { stdin, stdout, run };
}

async function quit(s: ReturnType<typeof startScreen>): Promise<void> {
  for (const ch of 'exit') s.stdin.write(ch);
  s.stdin.write('\r');
  expect(await s.run).toBe(0);
}

describe('the screen behind the door', () => {
  test('on another Ink: Ink’s own output draws the screen, and a notice line says why', async () => {
    uninstallFastOutput();
    const s = startScreen(checkInk('7.0.0'));
    await waitFor(() => plain(s.stdout.text()).includes('Ink 7.0.0 is installed'), 'the notice');
    expect(fastOutputInstalled()).toBe(false);
    expect(plain(s.stdout.text())).toContain('Your turn');
    // Keys still work without the raw events: typed letters reach the input line.
    await waitFor(() => s.stdin.listenerCount('readable') > 0, 'the input hook');
    s.stdin.write('h');
    await waitFor(() => plain(s.stdout.text()).includes('› h'), 'the typed key');
    s.stdin.write('\x7f');
    await quit(s);
    expect(fastOutputInstalled()).toBe(false);
    // Nothing would take paste markers or mouse reports out of the keys: neither is turned on.
    expect(s.stdout.text()).not.toContain(PASTE_ON);
    expect(s.stdout.text()).not.toContain(MOUSE_ON);
  });

  test('on the Ink it was written for: the fast output is in place and no notice', async () => {
    uninstallFastOutput();
    const s = startScreen();
    await waitFor(() => plain(s.stdout.text()).includes('Your turn'), 'the screen');
    expect(fastOutputInstalled()).toBe(true);
    await waitFor(() => s.stdin.listenerCount('readable') > 0, 'the input hook');
    await quit(s);
    expect(plain(s.stdout.text())).not.toContain('is installed, but');
    expect(s.stdout.text()).toContain(PASTE_ON);
    expect(s.stdout.text()).toContain(MOUSE_ON);
  });
});
