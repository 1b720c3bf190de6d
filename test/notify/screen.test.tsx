/**
 * The full-screen app with notifications: focus reporting is on for the stay, the terminal's
 * focus reports are never keys, and the terminal notification is written only after the
 * terminal reported focus-out.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { runTui, type TuiApp } from '../../components/runTui.js';
import {
  FOCUS_IN,
  FOCUS_OUT,
  FOCUS_REPORTING_OFF,
  FOCUS_REPORTING_ON,
} from '../../components/terminal/focusReporting.js';
import { LEAVE_ALT_SCREEN } from '../../components/terminal/terminalGuard.js';
import type { AgentEvent, AgentListener } from '../../src/api/events.js';
import { NO_FLAGS } from '../helpers/cliFlags.js';
import { createFakeController } from '../helpers/fakeController.js';
import { FakeStderr, FakeStdin, FakeStdout } from '../helpers/fakeTerminal.js';
import { waitFor } from '../helpers/waitForFrame.js';

function start() {
  const c = createFakeController({ machine: 'THINKING' });
  const listeners = new Set<AgentListener>();
  const emit = (e: AgentEvent): void => {
    c.emit(e);
    for (const l of listeners) l(e);
  };
  const agent = Object.assign(c, {
    subscribe: (l: AgentListener) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  });
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const proc = new EventEmitter();
  const app: TuiApp = {
    agent,
    config: { workspace: '/work/notes', language: 'en' },
    warnings: [],
    close: async () => {},
  };
  const run = runTui(NO_FLAGS, {
    createApp: async () => ({ ok: true, app }),
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStderr() as unknown as NodeJS.WritableStream,
    env: { TERM_PROGRAM: 'iTerm.app' },
    proc,
  });
  const approval = (id: number): void =>
    emit({
      type: 'approval_request',
      request: { id, tool: 'run', kind: 'process', call: `run("step ${id}")`, reason: 'asks' },
    });
  return { c, stdin, stdout, proc, run, approval, listeners };
}

const osc = (id: number): string => `\x1b]9;Approval needed: run("step ${id}") (asks)\x07`;

describe('notifications on the full screen', () => {
  test('focus-out then an approval: OSC 9 once; focused: none; reports are never keys', async () => {
    const r = start();
    await waitFor(() => r.stdin.listenerCount('readable') > 0 && r.listeners.size > 0, 'the app');
    expect(r.stdout.text()).toContain(FOCUS_REPORTING_ON);

    // Focused (or never reported): the user is looking, nothing is written.
    r.approval(1);
    r.stdin.write(FOCUS_OUT);
    r.approval(2);
    r.approval(2);
    await waitFor(() => r.stdout.text().includes(osc(2)), 'the terminal notification');
    r.stdin.write(FOCUS_IN);
    r.approval(3);
    // A focus report is not a key: while THINKING any key would interrupt.
    expect(r.c.methods()).toEqual(['start']);
    r.proc.emit('SIGTERM');
    expect(await r.run).toBe(143);

    const out = r.stdout.text();
    expect(out).not.toContain(osc(1));
    expect(out.split(osc(2)).length - 1).toBe(1);
    expect(out).not.toContain(osc(3));
    // Off again before the screen is left.
    expect(out.indexOf(FOCUS_REPORTING_OFF)).toBeGreaterThan(out.indexOf(osc(2)));
    expect(out.indexOf(FOCUS_REPORTING_OFF)).toBeLessThan(out.lastIndexOf(LEAVE_ALT_SCREEN));
  });
});
