/**
 * The screen session's own disposer stack: what the stay turned on is undone in reverse
 * when it ends, each undo isolated, so a terminal that fails while being restored still
 * loses every listener, and the failure is reported.
 */
import { EventEmitter } from 'node:events';
import React from 'react';
import { Text } from 'ink';
import { describe, expect, test } from 'vitest';
import { openScreenSession } from '../../components/terminal/screenSession.js';
import { LEAVE_ALT_SCREEN } from '../../components/terminal/terminalGuard.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { waitFor } from '../helpers/waitForFrame.js';

const ENDINGS = ['SIGTERM', 'SIGHUP', 'SIGINT', 'uncaughtException', 'unhandledRejection', 'exit'];

function rig() {
  const log: { stream: 'stdout' | 'stderr'; data: string }[] = [];
  const stdin = new FakeStdin();
  const stdout = new FakeStdout(log);
  const stderr = new FakeStderr(log);
  const proc = new EventEmitter();
  const session = openScreenSession({
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    proc,
    describeCrash: (err) => `crash: ${String(err)}`,
  });
  return { log, stdin, stdout, stderr, proc, session };
}

describe('the screen session', () => {
  test('ending it restores the screen before end returns and stops every listener', async () => {
    const r = rig();
    const shown = r.session.show<never>(() => <Text>hello</Text>);
    await waitFor(() => r.stdout.text().includes('hello'), 'the tree');
    r.session.end(0);
    expect(r.stdout.text()).toContain(LEAVE_ALT_SCREEN);
    expect(await shown).toEqual({ ended: true, code: 0 });
    for (const event of ENDINGS) expect(r.proc.listenerCount(event)).toBe(0);
    expect(r.stdout.listenerCount('resize')).toBe(0);
  });

  test('an undo that fails does not skip the later ones, and is reported', async () => {
    const r = rig();
    const shown = r.session.show<never>(() => <Text>hello</Text>);
    await waitFor(() => r.stdout.text().includes('hello'), 'the tree');
    // The frame writer follows the terminal's size through a listener added with `on`
    // (the tree's own is prepended): stopping it fails, as on a stream torn down mid-exit.
    const frameListeners = r.stdout.listeners('resize').slice(1);
    const off = r.stdout.off.bind(r.stdout);
    r.stdout.off = (event: string | symbol, listener: (...args: unknown[]) => void) => {
      if (frameListeners.includes(listener)) throw new Error('stream destroyed');
      return off(event, listener);
    };
    r.session.end(143);
    expect(await shown).toEqual({ ended: true, code: 143 });
    // Undone after the frame writer: the screen still comes back.
    expect(r.stdout.text()).toContain(LEAVE_ALT_SCREEN);
    for (const event of ENDINGS) expect(r.proc.listenerCount(event)).toBe(0);
    expect(r.stderr.text()).toBe('cogito: could not stop the frame writer: stream destroyed\n');
  });
});
