/**
 * The attack on a dead agent's pid, through the real program: the agent is killed with
 * SIGKILL (no cleanup: its registry entry and folder lock stay), and its pid is taken by an
 * unrelated process on purpose. `cogito status` reports the agent gone and cleans its entry,
 * `cogito stop` signals nothing (the stranger lives on), `cogito start` starts a new agent
 * instead of refusing in the stranger's name. And two starts at once both exit 0, one saying
 * the agent already runs.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/processAlive.js';
import { registryFile } from '../../src/daemon/places.js';
import { folderLockFile } from '../../src/history/lock.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import { spawnStrangerWithPid, strangerProcess } from '../helpers/reusePid.js';
import { waitUntil } from '../helpers/waitFor.js';

interface Row {
  running: boolean;
  pid: number;
}

describe("a dead agent's pid taken by a stranger", () => {
  let f: BackgroundFolder;
  let home: string;
  let ws: string;
  let stranger: ChildProcess | undefined;

  beforeEach(async () => {
    f = await backgroundFolder();
    ({ home, ws } = f);
  });
  afterEach(async () => {
    try {
      if (stranger?.pid) process.kill(-stranger.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
    stranger = undefined;
    await f.close();
  });

  const cogito = (args: string[]) => f.cogito(args);
  const rows = async (): Promise<Row[]> =>
    JSON.parse((await cogito(['status', '--json'])).out) as Row[];

  /**
   * Kills the agent as the OOM killer would and gives its pid to a stranger: for real where
   * the system allows it, else by naming the stranger's pid in the entry and the lock the
   * dead agent left (the same records a reused pid meets).
   */
  async function killAndReuse(pid: number): Promise<ChildProcess> {
    process.kill(-pid, 'SIGKILL');
    await waitUntil(() => !isAlive(pid), 'the agent to die', 15_000);
    const reused = await spawnStrangerWithPid(pid);
    if (reused) return reused;
    const other = strangerProcess();
    const entryFile = registryFile(home, ws);
    const entry = JSON.parse(await readFile(entryFile, 'utf8')) as Row;
    await writeFile(entryFile, JSON.stringify({ ...entry, pid: other.pid }));
    const lockFile = folderLockFile(home, ws);
    const [, ...rest] = (await readFile(lockFile, 'utf8')).split('\n');
    await writeFile(lockFile, [String(other.pid), ...rest].join('\n'));
    return other;
  }

  it('status cleans it, stop signals nothing, start starts anew', async () => {
    const agent = await f.startAgent();
    stranger = await killAndReuse(agent.pid);
    const strangerPid = stranger.pid!;
    const left = await readFile(registryFile(home, ws), 'utf8');

    // status: the stranger is not the agent; the entry goes.
    expect(await rows()).toEqual([expect.objectContaining({ running: false, pid: strangerPid })]);
    expect(existsSync(registryFile(home, ws))).toBe(false);

    // stop: nothing is signalled. (The dead agent's entry is put back: stop may come first.)
    await writeFile(registryFile(home, ws), left);
    const stopped = await cogito(['stop']);
    expect(stopped.code, stopped.err).toBe(0);
    expect(stopped.out).toContain(`was not running any more; cleaned up (pid ${strangerPid})`);
    expect(isAlive(strangerPid)).toBe(true);

    // start: the lock the dead agent left names the stranger's pid; it is stale, not busy.
    const again = await cogito(['start', '--think-interval', '600000']);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`Cogito runs in the background in ${ws} (pid `);
    expect(again.err).not.toContain('A background Cogito');
    const [fresh] = await rows();
    expect(fresh).toMatchObject({ running: true });
    expect(fresh!.pid).not.toBe(strangerPid);
    expect(isAlive(strangerPid)).toBe(true);
    const last = await cogito(['stop']);
    expect(last.out).toContain('stopped');
    expect(isAlive(strangerPid)).toBe(true);
  }, 240_000);

  it('two starts at once leave one agent, and both say it runs (exit 0)', async () => {
    const [a, b] = await Promise.all([
      cogito(['start', '--think-interval', '600000']),
      cogito(['start', '--think-interval', '600000']),
    ]);
    const running = await rows();
    expect(running).toEqual([expect.objectContaining({ running: true })]);
    expect([a.code, b.code], `${a.err}\n${b.err}`).toEqual([0, 0]);
    const outs = [a.out, b.out].join('\n');
    expect(outs).toContain(`(pid ${running[0]!.pid})`);
    expect(outs).toMatch(/already runs in the background/);
    expect(a.err + b.err).not.toContain('did not start');
    await cogito(['stop']);
  }, 240_000);
});
