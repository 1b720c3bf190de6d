/**
 * The attack: four `cogito start` in one folder at the same moment, real processes. Exactly
 * one agent runs; every start exits 0, one saying it started it, the others that it already
 * runs (no "did not start" with the winner's log).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listEntries } from '../../src/daemon/registry.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';

describe('concurrent starts in one folder', () => {
  let f: BackgroundFolder;
  beforeEach(async () => {
    f = await backgroundFolder();
  });
  afterEach(async () => {
    await f.close();
  });

  it('four starts at once: one agent, four exits 0, three say it already runs', async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => f.cogito(['start', '--think-interval', '600000'])),
    );
    const all = runs.map((r) => `${r.code}\n${r.out}${r.err}`).join('\n---\n');
    expect(
      runs.map((r) => r.code),
      all,
    ).toEqual([0, 0, 0, 0]);
    const entries = listEntries(f.home);
    expect(entries, all).toHaveLength(1);
    const pid = entries[0]!.pid;
    expect(runs.filter((r) => r.out.startsWith('Cogito runs in the background'))).toHaveLength(1);
    expect(
      runs.filter((r) =>
        r.out.startsWith(`Cogito already runs in the background in ${f.ws} (pid ${pid})`),
      ),
    ).toHaveLength(3);
    for (const r of runs) expect(r.err).not.toContain('did not start');
    // One agent process: the status lists one, running.
    const rows = JSON.parse((await f.cogito(['status', '--json'])).out) as { pid: number }[];
    expect(rows.map((r) => r.pid)).toEqual([pid]);
  }, 240_000);
});
