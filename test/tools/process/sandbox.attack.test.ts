/**
 * Attacks on the `run` sandbox, each run in real bubblewrap against real files: a symlink
 * out of the workspace, `/proc/self/root`, a bind mount, Cogito's home (its config holds the
 * API key) inside the workspace, a read-only command that writes after all, a disk fill
 * past the file-size limit, terminal escapes in the output, and output far past the cap; a
 * fork bomb against the process limit, commands that daemonize (setsid, double fork, nohup)
 * leaving nothing behind, and writes to shell start-up files and Cogito's home refused.
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunTool, type RunSettings } from '../../../src/tools/process/run.js';
import { isReadOnlyCommand } from '../../../src/tools/process/readOnly.js';
import type { ToolResult } from '../../../src/tools/types.js';
import { Workspace } from '../../../src/tools/workspace.js';
import { pidsWith } from '../../helpers/procScan.js';
import { waitUntil } from '../../helpers/waitFor.js';

const SETTINGS: RunSettings = {
  timeoutMs: 20_000,
  maxOutputChars: 2_000,
  sandbox: 'bubblewrap',
  maxBackground: 4,
  backgroundTimeoutMs: 60_000,
  readOnlyCommands: [],
};
const hasBwrap = existsSync('/usr/bin/bwrap') || process.env.CI === 'true';
const text = (r: ToolResult): string => (r.ok ? String(r.data) : r.error.message);

describe.runIf(process.platform === 'linux' && hasBwrap)('run sandbox attacks', () => {
  let dir: string;
  let root: string;
  let outside: string;
  let ws: Workspace;
  const run = async (command: string, hidden: string[] = []): Promise<ToolResult> =>
    createRunTool({ settings: SETTINGS, hidden }).run([command], {
      workspace: ws,
      signal: new AbortController().signal,
    });

  beforeEach(async () => {
    dir = await mkdtemp(
      path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'cogito-sbx-'),
    );
    root = path.join(dir, 'ws');
    outside = path.join(dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await writeFile(path.join(outside, 'target.txt'), 'original');
    ws = await Workspace.open(root);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a symlink out of the workspace and /proc/self/root lead to read-only places', async () => {
    await symlink(outside, path.join(root, 'out'));
    const r = await run(
      `echo a > out/target.txt; echo b > /proc/self/root${outside}/target.txt; echo c > /proc/1/root${outside}/new.txt; mount --bind . ${outside} ; echo done`,
    );
    expect(text(r)).toContain('done');
    expect(await readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('original');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it("Cogito's home inside the workspace is hidden: its config (the API key) cannot be read or written", async () => {
    const home = path.join(root, '.cogito');
    await mkdir(home);
    await writeFile(path.join(home, 'config.json'), '{"apiKey":"sk-secret-123"}');
    const r = await run('cat .cogito/config.json; echo x > .cogito/config.json; ls -a .cogito', [
      home,
    ]);
    expect(text(r)).not.toContain('sk-secret-123');
    expect(await readFile(path.join(home, 'config.json'), 'utf8')).toContain('sk-secret-123');
  });

  it('a read-only command runs with the workspace read-only (git diff --output cannot write)', async () => {
    expect(isReadOnlyCommand('git diff --output=pwned.txt', ['git diff'])).toBe(true);
    expect(isReadOnlyCommand('ls; rm -rf .', ['ls'])).toBe(false);
    expect(isReadOnlyCommand('ls $(rm x)', ['ls'])).toBe(false);
    expect(isReadOnlyCommand('cat a > b', ['cat'])).toBe(false);
    const r = await createRunTool({ settings: SETTINGS, hidden: [] }).run(
      ['echo hi'], // on the default list; `echo` cannot redirect without `>`
      { workspace: ws, signal: new AbortController().signal },
    );
    expect(text(r)).toContain('hi');
    const w = await createRunTool({
      settings: { ...SETTINGS, readOnlyCommands: ['touch'] },
      hidden: [],
    }).run(['touch made.txt'], { workspace: ws, signal: new AbortController().signal });
    expect(text(w)).toMatch(/Read-only file system/);
    expect(existsSync(path.join(root, 'made.txt'))).toBe(false);
  });

  it('a disk fill stops at the file-size limit', async () => {
    // 1 GiB cap per file: a 1.5 GiB sparse write is cut (no real disk is used).
    const r = await run('dd if=/dev/zero of=big bs=1 count=1 seek=1610612736 2>&1; echo rc=$?');
    expect(text(r)).toMatch(/File too large|rc=1|rc=153/);
  });

  it('terminal escapes in the output are removed, and a flood is cut head and tail', async () => {
    const esc = await run(String.raw`printf '\033]52;c;cHduZWQ=\007visible\033[2J\n'`);
    expect(text(esc)).toContain('visible');
    expect(text(esc)).not.toContain('\u001b');
    const flood = await run('seq 1 200000');
    const out = text(flood);
    expect(out).toContain('\n1\n');
    expect(out).toContain('200000');
    expect(out).toMatch(/characters of output cut here/);
    expect(out.length).toBeLessThan(3_000);
  });

  it('a fork bomb meets the process limit ("Cannot fork") and leaves nothing behind', async () => {
    // The kernel never applies the process limit to root: as root, the sandbox is started as
    // nobody (what it is for every normal user), through a bwrap wrapper.
    let bwrapPath: string | undefined;
    if (process.getuid?.() === 0) {
      for (const p of [dir, root]) await chmod(p, 0o777);
      bwrapPath = path.join(dir, 'bwrap-as-nobody');
      await writeFile(
        bwrapPath,
        '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/bwrap "$@"\n',
        { mode: 0o755 },
      );
    }
    const marker = '32109.8';
    const settings = { ...SETTINGS, maxProcesses: 64, ...(bwrapPath ? { bwrapPath } : {}) };
    // Bounded (400 tries), so a broken limit fails the test instead of the machine.
    const r = await createRunTool({ settings, hidden: [] }).run(
      [`i=0; while [ $i -lt 400 ]; do sleep ${marker} & i=$((i+1)); done; echo tried`],
      { workspace: ws, signal: new AbortController().signal },
    );
    const out = text(r);
    expect(out).toMatch(/Cannot fork|fork: retry|Resource temporarily unavailable/);
    expect(out).toContain('tried');
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
  }, 30_000);

  it.runIf(process.getuid?.() === 0 && existsSync('/sys/fs/cgroup/pids/cgroup.procs'))(
    'as root, a pids cgroup of its own holds the process limit, and is removed after',
    async () => {
      // Root and no nobody wrapper: only the cgroup can make this fork fail.
      const marker = '31098.7';
      const settings = { ...SETTINGS, maxProcesses: 64 };
      const r = await createRunTool({ settings, hidden: [] }).run(
        [`i=0; while [ $i -lt 400 ]; do sleep ${marker} & i=$((i+1)); done; echo tried`],
        { workspace: ws, signal: new AbortController().signal },
      );
      expect(text(r)).toMatch(/Cannot fork|fork: retry|Resource temporarily unavailable/);
      await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left', 5_000);
      const ours = (): string[] =>
        readdirSync('/sys/fs/cgroup/pids').filter((d) =>
          d.startsWith(`cogito-run-${process.pid}-`),
        );
      expect(ours()).toEqual([]);
    },
    30_000,
  );

  it('commands that daemonize (setsid, double fork, nohup) leave nothing behind', async () => {
    const marker = '21098.7';
    const r = await run(
      `setsid sleep ${marker} & (sh -c 'sleep ${marker} &' &); nohup sleep ${marker} >/dev/null 2>&1 & echo left`,
    );
    expect(text(r)).toContain('left');
    expect(text(r)).toContain('exit code 0');
    await waitUntil(() => pidsWith(marker).length === 0, 'no daemon left', 5_000);
  });

  it("start-up files (outside, and at the top of a workspace that is a home) and Cogito's home are read-only", async () => {
    const fakeHome = path.join(dir, 'home');
    await mkdir(fakeHome);
    await writeFile(path.join(fakeHome, '.bashrc'), '# mine\n');
    await writeFile(path.join(root, '.bashrc'), '# ws\n');
    await writeFile(path.join(root, '.profile'), '# ws\n');
    const cogito = path.join(dir, 'cogito-home');
    await mkdir(cogito);
    await writeFile(path.join(cogito, 'config.json'), '{"apiKey":"sk-outside-456"}');
    const r = await run(
      [
        `HOME=${fakeHome}; echo pwned >> ~/.bashrc`,
        'echo pwned >> .bashrc',
        'echo pwned > .profile',
        `cat ${cogito}/config.json`,
        `echo '{}' > ${cogito}/config.json`,
        'echo fine > other.txt',
        'echo end',
      ].join('; '),
      [cogito],
    );
    const out = text(r);
    expect(out).toContain('end');
    expect(out).not.toContain('sk-outside-456');
    expect(await readFile(path.join(fakeHome, '.bashrc'), 'utf8')).toBe('# mine\n');
    expect(await readFile(path.join(root, '.bashrc'), 'utf8')).toBe('# ws\n');
    expect(await readFile(path.join(root, '.profile'), 'utf8')).toBe('# ws\n');
    expect(await readFile(path.join(cogito, 'config.json'), 'utf8')).toContain('sk-outside-456');
    expect(await readFile(path.join(root, 'other.txt'), 'utf8')).toBe('fine\n');
  });
});
