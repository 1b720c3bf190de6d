/**
 * `cogito status` through the real program speaks like the status bar (issue 33.6): a
 * background agent that rests is reported resting (never `THINKING`), its times in the
 * user's local time zone (TZ in the child's environment, not UTC ISO), its counts rounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';
import { waitUntil } from '../helpers/waitFor.js';

/** UTC+5:45 all year: a local time differs from UTC in both its hour and its minutes. */
const TZ = 'Asia/Kathmandu';
const hhmm = (iso: string, timeZone: string): string =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

interface Row {
  state: string;
  since: string;
  activity?: { state: string };
}

describe('cogito status, as the status bar says it', () => {
  let folder: BackgroundFolder | undefined;
  afterEach(async () => {
    await folder?.close();
    folder = undefined;
  });

  it('a resting agent is Resting (not THINKING), at local times, with rounded counts', async () => {
    folder = await backgroundFolder({ watch: { maxWakesPerHour: 0 } }, { TZ });
    const f = folder;
    // Done for now, said plainly: the agent rests (the machine stays THINKING underneath).
    f.server.setDefault({ kind: 'stream', content: 'I looked around. Nothing needs doing now.' });
    await f.startAgent();
    const row = await waitUntil(
      async () => {
        const r = await f.cogito(['status', '--json']);
        const [first] = JSON.parse(r.out) as Row[];
        return first?.activity?.state === 'resting' ? first : undefined;
      },
      'the agent to rest',
      60_000,
    );
    expect(row.state).toBe('THINKING');

    const text = await f.cogito(['status']);
    expect(text.code, text.err).toBe(0);
    const [, stateLine, processLine, countsLine] = text.out.split('\n');
    expect(stateLine).toMatch(/^ {2}● Resting · /);
    expect(text.out).not.toContain('THINKING');
    // Local times: the offset shows (Kathmandu's, never UTC's), and no ISO time is printed.
    const local = hhmm(row.since, TZ);
    expect(local).not.toBe(hhmm(row.since, 'UTC'));
    expect(stateLine).toContain(`since ${local}`);
    expect(processLine).toMatch(/^ {2}pid \d+ · started \d\d:\d\d · last activity \d\d:\d\d$/);
    expect(text.out).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // Counts as the bar rounds them.
    expect(countsLine).toMatch(
      /^ {2}Cycle \d+\/[\d∞]+ · [\d.]+k? tokens this session · [\d.]+k? tokens in the last 24 h$/,
    );
  }, 120_000);
});
