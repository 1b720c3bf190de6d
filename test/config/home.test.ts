import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCheckout, resolveHome } from '../../src/config/paths.js';
import { describeWhere } from '../../src/cli/where.js';

describe('the app home', () => {
  let dir: string;
  let install: string;
  let user: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cogito-home-'));
    install = path.join(dir, 'lib', 'node_modules', 'cogito');
    user = path.join(dir, 'user');
    mkdirSync(install, { recursive: true });
    mkdirSync(user);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is ~/.cogito for an installed copy, never the package folder', () => {
    expect(isCheckout(install)).toBe(false);
    expect(resolveHome({ env: {}, installRoot: install, userHome: user })).toEqual({
      home: path.join(user, '.cogito'),
      source: 'user',
    });
  });

  it('stays the project folder in a git checkout (.git as a folder, or a worktree file)', () => {
    mkdirSync(path.join(install, '.git'));
    expect(resolveHome({ env: {}, installRoot: install, userHome: user })).toEqual({
      home: install,
      source: 'project',
    });
    rmSync(path.join(install, '.git'), { recursive: true });
    writeFileSync(path.join(install, '.git'), 'gitdir: /somewhere/.git/worktrees/x\n');
    expect(resolveHome({ env: {}, installRoot: install, userHome: user }).source).toBe('project');
  });

  it('--home and COGITO_HOME still win over both', () => {
    const opts = { installRoot: install, userHome: user, cwd: dir };
    expect(resolveHome({ ...opts, env: { COGITO_HOME: 'h-env' } })).toEqual({
      home: path.join(dir, 'h-env'),
      source: 'env',
    });
    expect(resolveHome({ ...opts, flag: 'h-flag', env: { COGITO_HOME: 'h-env' } })).toEqual({
      home: path.join(dir, 'h-flag'),
      source: 'flag',
    });
  });

  it('--where names the home, its source, the files in use, and creates nothing', () => {
    const home = path.join(dir, 'fresh-home');
    const text = describeWhere({ home, env: {} });
    expect(text).toContain(`home      ${home} (from --home) (not created yet)`);
    expect(text).toContain(`config    ${path.join(home, 'config.json')}`);
    expect(text).toContain(`data      ${path.join(home, 'data')}`);
    expect(text).toMatch(/personas {2}\S+personas \(built in\)/);
    expect(text).toContain(`${path.join(home, 'personas')} (yours)`);
    expect(() => rmSync(home)).toThrow();
  });
});
