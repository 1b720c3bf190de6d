/**
 * `cogito service install` attacked by a folder's name, through the real program: a name with
 * newlines that would add a `[Service]` section of its own (an ExecStart run at every login)
 * is refused with the reason and nothing is written; a trailing space is kept (systemd trims
 * a WorkingDirectory= value, so the unit would start in another folder), and
 * `systemd-analyze verify` accepts the unit; the macOS plist is valid XML that reads back
 * (Python's plistlib, an independent reader) as the folder exactly, and a control character
 * is refused rather than written as invalid XML.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceName } from '../../src/daemon/service.js';
import { runCogito } from '../helpers/cogitoProcess.js';

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const hasPython = spawnSync('python3', ['-c', 'import plistlib']).status === 0;

describe('cogito service install against hostile folder names', () => {
  let tmp: string;
  let home: string;
  let xdg: string;
  beforeEach(async () => {
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-svc-attack-')));
    home = path.join(tmp, 'home');
    xdg = path.join(tmp, 'xdg');
    await mkdir(home);
  });
  afterEach(() => rm(tmp, { recursive: true, force: true }));

  const install = async (ws: string) => {
    const run = runCogito(['service', 'install', '--workspace', ws, '--home', home], {
      HOME: tmp,
      XDG_CONFIG_HOME: xdg,
      COGITO_API_KEY: 'k',
    });
    return { code: await run.code, out: run.stdout(), err: run.stderr() };
  };
  const unitDir = () => path.join(xdg, 'systemd', 'user');

  it.skipIf(process.platform !== 'linux')(
    'a name with newlines adds no section of its own: refused, nothing written',
    async () => {
      const ws = path.join(tmp, 'proj\n\n[Service]\nExecStartPre=touch pwned\n#');
      await mkdir(ws);
      const r = await install(ws);
      expect(r.code).toBe(2);
      expect(r.err).toContain('holds a newline');
      expect(r.err).toContain('Rename the folder');
      expect(existsSync(unitDir()) ? readdirSync(unitDir()) : []).toEqual([]);
      expect(r.out).not.toContain('Wrote');
    },
    60_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'a trailing space is kept: the unit names the folder exactly, and systemd accepts it',
    async () => {
      const ws = path.join(tmp, 'proj ');
      await mkdir(ws);
      await mkdir(path.join(tmp, 'proj')); // where a trimmed path would lead
      const r = await install(ws);
      expect(r.code, r.err).toBe(0);
      const file = path.join(unitDir(), `${serviceName(ws)}.service`);
      const unit = await readFile(file, 'utf8');
      expect(unit).toContain(`"--workspace" "${ws}"`);
      // No line whose value systemd would trim to another folder.
      for (const line of unit.split('\n')) expect(line).not.toMatch(/\s$/);
      expect(unit).not.toContain('WorkingDirectory=');
      if (!hasAnalyze) return;
      const runtime = path.join(tmp, 'runtime');
      await mkdir(runtime, { mode: 0o700 });
      const verified = spawnSync('systemd-analyze', ['--user', 'verify', file], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: xdg },
      });
      expect(verified.status, verified.stderr).toBe(0);
    },
    60_000,
  );

  it.skipIf(!hasPython)(
    'the plist is XML that reads back as the folder exactly; a control character is refused',
    async () => {
      const { runService } = await import('../../src/daemon/service.js');
      let out = '';
      let err = '';
      const io = (ws: string) => ({
        env: { HOME: tmp, COGITO_API_KEY: 'k' },
        cwd: ws,
        platform: 'darwin' as const,
        program: ['/usr/bin/node', '/opt/cogito/bin/cogito.js'],
        stdout: { write: (s: string) => ((out += s), true) } as NodeJS.WritableStream,
        stderr: { write: (s: string) => ((err += s), true) } as NodeJS.WritableStream,
      });
      const ws = path.join(tmp, `a <b> & 'c' "d" 100% ]]> `);
      await mkdir(ws);
      expect(await runService({ action: 'install', home }, io(ws))).toBe(0);
      const file = path.join(tmp, 'Library', 'LaunchAgents', `dev.cogito.${serviceName(ws)}.plist`);
      const read = execFileSync(
        'python3',
        [
          '-c',
          'import json,plistlib,sys; p=plistlib.load(open(sys.argv[1],"rb")); print(json.dumps([p["WorkingDirectory"], p["ProgramArguments"]]))',
          file,
        ],
        { encoding: 'utf8' },
      );
      const [dir, args] = JSON.parse(read) as [string, string[]];
      expect(dir).toBe(ws);
      expect(args).toContain(ws);

      const bell = path.join(tmp, 'bell\u0007');
      await mkdir(bell);
      expect(await runService({ action: 'install', home }, io(bell))).toBe(2);
      expect(err).toContain('the control character U+0007');
      expect(out.match(/Wrote/g)).toHaveLength(1);
    },
  );
});
