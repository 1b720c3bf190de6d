/**
 * The macOS sandbox profile, as text (sandbox-exec cannot run here): the same rules as the
 * Linux sandbox, in the order Seatbelt needs (the last matching rule wins).
 */
import { describe, expect, it } from 'vitest';
import { sbplString, seatbeltArgs, seatbeltProfile } from '../../../src/tools/process/seatbelt.js';

const plan = {
  workspace: '/Users/ann/proj',
  cwd: '/Users/ann/proj/src',
  readOnly: false,
  hidden: ['/Users/ann/.cogito'],
  tmp: '/private/var/folders/x/cogito-run-1',
};

describe('seatbeltProfile', () => {
  it('denies by default, allows reads, writes only to the workspace and its temp folder', () => {
    const p = seatbeltProfile(plan);
    const lines = p.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(lines).toContain('(allow file-read*)');
    expect(lines).toContain('(allow file-write* (subpath "/Users/ann/proj"))');
    expect(lines).toContain('(allow file-write* (subpath "/private/var/folders/x/cogito-run-1"))');
    expect(p).not.toMatch(/allow file-write\* \(subpath "\/"\)/);
    expect(p).not.toMatch(/allow network/);
  });

  it('protected places and the hidden home come after the allowances, and no network last', () => {
    const lines = seatbeltProfile(plan).trim().split('\n');
    const allowWs = lines.indexOf('(allow file-write* (subpath "/Users/ann/proj"))');
    const guard = lines.findIndex((l) => l.startsWith('(deny file-write*'));
    expect(guard).toBeGreaterThan(allowWs);
    expect(lines[guard]).toContain('(subpath "/Users/ann/proj/.git")');
    expect(lines[guard]).toContain('(subpath "/Users/ann/proj/.bashrc")');
    expect(lines[guard]).toContain('(subpath "/Users/ann/proj/Library/LaunchAgents")');
    const hide = lines.indexOf('(deny file-read* file-write* (subpath "/Users/ann/.cogito"))');
    expect(hide).toBeGreaterThan(lines.indexOf('(allow file-read*)'));
    expect(lines.at(-1)).toBe('(deny network*)');
  });

  it('a read-only command may not write the workspace', () => {
    const p = seatbeltProfile({ ...plan, readOnly: true });
    expect(p).not.toContain('(allow file-write* (subpath "/Users/ann/proj"))');
    expect(seatbeltArgs(plan)[0]).toBe('-p');
  });

  it('paths are quoted safely; a control character is refused', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const p = seatbeltProfile({ ...plan, workspace: '/tmp/a") (allow network*) ("' });
    expect(p).not.toMatch(/^\(allow network\*\)/m);
    expect(p).toContain('(allow file-write* (subpath "/tmp/a\\") (allow network*) (\\""))');
    expect(() => sbplString('/a\nb')).toThrow(/control character/);
  });
});
