/**
 * `cogito service install|uninstall`: the systemd user unit and the LaunchAgent written for a
 * folder, into a temporary HOME / XDG_CONFIG_HOME, with hostile characters in the folder's
 * name kept literal; `systemd-analyze verify` checks the unit where it is installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runService, serviceName } from '../../src/daemon/service.js';

describe('cogito service', () => {
  let tmp: string;
  let ws: string;
  let home: string;
  let out: string;
  let err: string;

  beforeEach(async () => {
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-svc-')));
    // A folder name systemd would expand ($, %) and a space and a quote: all must stay literal.
    ws = path.join(tmp, 'my "notes" 100% $HOME');
    home = path.join(tmp, 'app home');
    await Promise.all([ws, home].map((d) => mkdir(d)));
    out = '';
    err = '';
  });
  afterEach(() => rm(tmp, { recursive: true, force: true }));

  const io = (platform: NodeJS.Platform, env: Record<string, string>) => ({
    env: { ...env, COGITO_API_KEY: 'k' },
    cwd: ws,
    platform,
    program: ['/usr/bin/node', '/opt/cogito/bin/cogito.js'],
    stdout: { write: (s: string) => ((out += s), true) } as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((err += s), true) } as NodeJS.WritableStream,
  });

  it('writes a systemd user unit under XDG_CONFIG_HOME that runs start --foreground, and removes it', async () => {
    const config = path.join(tmp, 'xdg');
    const env = { HOME: path.join(tmp, 'user'), XDG_CONFIG_HOME: config };
    expect(await runService({ action: 'install', home }, io('linux', env))).toBe(0);
    const name = serviceName(ws);
    expect(name).toMatch(/^cogito-my__notes__100___HOME-[0-9a-f]{8}$/);
    const file = path.join(config, 'systemd', 'user', `${name}.service`);
    const unit = await readFile(file, 'utf8');
    expect(unit).toContain(
      `ExecStart="/usr/bin/node" "/opt/cogito/bin/cogito.js" "start" "--foreground" "--workspace" "${tmp}/my \\"notes\\" 100%% $$HOME" "--home" "${home}"`,
    );
    expect(unit).toContain(
      `Description=Cogito background agent for "${tmp}/my "notes" 100%% $HOME"`,
    );
    // systemd trims a WorkingDirectory= value: the folder is named only inside ExecStart.
    expect(unit).not.toContain('WorkingDirectory=');
    expect(unit).toContain('Restart=on-failure');
    expect(unit).toContain('WantedBy=default.target');
    expect(out).toContain(`Wrote ${file}`);
    expect(out).toContain(`systemctl --user enable --now ${name}.service`);

    expect(await runService({ action: 'uninstall', home }, io('linux', env))).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(out).toContain(`systemctl --user disable --now ${name}.service`);
    expect(out).toContain(`Removed ${file}`);
  });

  it('without XDG_CONFIG_HOME the unit goes to ~/.config/systemd/user', async () => {
    const user = path.join(tmp, 'user');
    expect(await runService({ action: 'install', home }, io('linux', { HOME: user }))).toBe(0);
    expect(
      existsSync(path.join(user, '.config', 'systemd', 'user', `${serviceName(ws)}.service`)),
    ).toBe(true);
  });

  it('writes a LaunchAgent plist on macOS, XML-escaped', async () => {
    const user = path.join(tmp, 'user');
    expect(await runService({ action: 'install', home }, io('darwin', { HOME: user }))).toBe(0);
    const file = path.join(user, 'Library', 'LaunchAgents', `dev.cogito.${serviceName(ws)}.plist`);
    const plist = await readFile(file, 'utf8');
    expect(plist).toContain(`<string>${tmp}/my &quot;notes&quot; 100% $HOME</string>`);
    expect(plist).toContain('<string>--foreground</string>');
    expect(plist).toContain('<key>RunAtLoad</key><true/>');
    expect(out).toContain(`launchctl load -w "${file}"`);
  });

  it('on Windows it says it is not supported yet and what to do instead', async () => {
    expect(await runService({ action: 'install', home }, io('win32', { HOME: tmp }))).toBe(2);
    expect(err).toContain('Task Scheduler');
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  if (!analyze) console.log('skipped: systemd-analyze is not installed on this machine');
  it.skipIf(!analyze)('systemd-analyze verify accepts the unit', async () => {
    const config = path.join(tmp, 'xdg');
    await runService(
      { action: 'install', home },
      {
        ...io('linux', { HOME: tmp, XDG_CONFIG_HOME: config }),
        program: [process.execPath, path.resolve('bin/cogito.js')],
      },
    );
    const file = path.join(config, 'systemd', 'user', `${serviceName(ws)}.service`);
    // --user needs a runtime folder; a private one stands in for the login session's.
    const runtime = path.join(tmp, 'runtime');
    await mkdir(runtime, { mode: 0o700 });
    execFileSync('systemd-analyze', ['--user', 'verify', file], {
      stdio: 'pipe',
      env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    });
  });
});
