import { describe, expect, it } from 'vitest';
import { CLI_OPTIONS, HELP, UsageError, parseCliArgs } from '../../src/cli/args.js';

describe('the option table', () => {
  it('--help lists every option the parser accepts, with its value and description', () => {
    for (const o of CLI_OPTIONS) {
      const usage = `--${o.name}${o.value ? ` ${o.value}` : ''}`;
      expect(HELP).toContain(usage);
      for (const line of o.help.split('\n')) expect(HELP).toContain(line);
      if (o.short) expect(HELP).toContain(`-${o.short}, --${o.name}`);
      // Every option in the help parses (a value for string options).
      const value =
        o.value === 'N' || o.value === 'MS' ? '3' : o.value === 'KINDS' ? 'write,network' : 'x';
      const argv = o.value ? [`--${o.name}`, value] : [`--${o.name}`];
      if (o.name === 'json' || o.name === 'verbose' || o.name === 'approve') argv.push('-p', 'x');
      if (o.name === 'force') argv.push('--session', 'id');
      expect(() => parseCliArgs(argv)).not.toThrow();
    }
  });

  it('an option not in the table is refused with the way to the help', () => {
    expect(() => parseCliArgs(['--frobnicate'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--frobnicate'])).toThrow(/--help/);
  });

  it('--approve reads kinds and all; a bad kind names the valid ones', () => {
    expect(parseCliArgs(['-p', 'x', '--approve', 'network, WRITE']).approve).toEqual([
      'write',
      'network',
    ]);
    expect(parseCliArgs(['-p', 'x', '--approve', 'all']).approve).toEqual([
      'read',
      'write',
      'destructive',
      'network',
      'process',
    ]);
    expect(() => parseCliArgs(['-p', 'x', '--approve', 'writes'])).toThrow(
      /unknown tool kind "writes"; the kinds are read, write, destructive, network, process or all/,
    );
  });

  it('--force needs --session, and says so', () => {
    expect(() => parseCliArgs(['--force'])).toThrow(/--force works with --session ID/);
    expect(parseCliArgs(['--session', 'abc', '--force'])).toMatchObject({
      session: 'abc',
      force: true,
    });
  });

  it('-c continues, --session ID names one; both at once is refused, saying why', () => {
    expect(parseCliArgs(['-p', 'x', '-c'])).toMatchObject({ print: 'x', continue: true });
    expect(parseCliArgs(['-p', 'x'])).toMatchObject({ continue: false, verbose: false });
    expect(() => parseCliArgs(['-p', 'x', '-c', '--session', 'abc'])).toThrow(/use one of them/);
    expect(() => parseCliArgs(['--verbose'])).toThrow(/--verbose works with -p/);
  });

  it('documents the exit codes', () => {
    expect(HELP).toMatch(
      /0 done, 1 failed, 2 bad configuration or arguments, 3 the folder is taken/,
    );
    expect(HELP).toMatch(
      /4 no background agent runs in the folder \(send, approve, deny\), 130 interrupted/,
    );
    expect(HELP).toContain('cogito send "TEXT"');
    expect(HELP).toContain('cogito approve');
  });
});
