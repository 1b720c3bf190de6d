/** The shell commands' options: send's message, --wait and --timeout, approve's --always. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_SECONDS, parseDaemonCommand } from '../../src/daemon/commandArgs.js';

describe('cogito send|approve|deny options', () => {
  it('reads a message, --wait and --timeout, with the default wait', () => {
    expect(parseDaemonCommand(['send', 'hi there', '--workspace', '/w'])).toEqual({
      name: 'send',
      text: 'hi there',
      wait: false,
      steer: false,
      timeoutMs: DEFAULT_WAIT_SECONDS * 1000,
      workspace: '/w',
      home: undefined,
    });
    expect(parseDaemonCommand(['send', 'hi', '--wait', '--timeout', '5'])).toMatchObject({
      wait: true,
      timeoutMs: 5000,
    });
    expect(parseDaemonCommand(['send', 'only the first', '--steer'])).toMatchObject({
      steer: true,
    });
    expect(parseDaemonCommand(['approve', '--always'])).toMatchObject({
      name: 'approve',
      always: true,
    });
    expect(parseDaemonCommand(['deny'])).toMatchObject({ name: 'deny', always: false });
  });

  it('names the problem and the fix for each misuse', () => {
    const bad: [string[], RegExp][] = [
      [['send'], /usage: cogito send "MESSAGE"/],
      [['send', '  '], /must not be empty/],
      [['send', 'a', 'b'], /one message, quoted/],
      [['send', 'hi', '--wait', '--timeout', '0'], /--timeout expects a whole number of seconds/],
      [['send', 'hi', '--timeout', '5'], /--timeout is for --wait/],
      [['send', '/help', '--wait'], /the slash command \/help gets none.*leave --wait out/],
      [['deny', '--always'], /cogito deny takes: --workspace, --home/],
    ];
    for (const [args, message] of bad) {
      expect(() => parseDaemonCommand(args), args.join(' ')).toThrow(message);
    }
  });
});
