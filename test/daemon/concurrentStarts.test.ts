/**
 * The attack: six `cogito start` in one folder at the same moment, real processes. Exactly
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

  // The race is between one start's check and its agent taking the folder; one round of
  // starts may happen to miss it, so three rounds of six, the agent stopped between them.
  it('six starts at once, three times: one agent, every exit 0, the others say it already runs', async () => {
    for (let round = 1; round <= 3; round++) {
      const runs = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => f.cogito(['start', '--think-interval', '600000'])),
      );
      const all = `round ${round}\n${runs.map((r) => `${r.code}\n${r.out}${r.err}`).join('\n---\n')}`;
      expect(
        runs.map((r) => r.code),
        all,
      ).toEqual([0, 0, 0, 0, 0, 0]);
      const entries = listEntries(f.home);
      expect(entries, all).toHaveLength(1);
      const pid = entries[0]!.pid;
      expect(
        runs.filter((r) => r.out.startsWith('Cogito runs in the background')),
        all,
      ).toHaveLength(1);
      expect(
        runs.filter((r) =>
          r.out.startsWith(`Cogito already runs in the background in ${f.ws} (pid ${pid})`),
        ),
        all,
      ).toHaveLength(5);
      for (const r of runs) expect(r.err, all).not.toContain('did not start');
      // One agent process: the status lists one, running.
      const rows = JSON.parse((await f.cogito(['status', '--json'])).out) as { pid: number }[];
      expect(rows.map((r) => r.pid)).toEqual([pid]);
      const stop = await f.cogito(['stop', '--all']);
      expect(stop.code, stop.out + stop.err).toBe(0);
      expect(listEntries(f.home)).toHaveLength(0);
    }
  }, 400_000);
});
