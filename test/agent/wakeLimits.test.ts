import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSettings } from '../../src/agent/agent.js';
import { MODEL_REMINDER_FLOOR_MS } from '../../src/agent/alwaysOn.js';
import { maxLooksWithin } from '../../src/scheduler/pacing.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { internalsOf } from '../helpers/agentInternals.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The attacks on the always-on agent's pace, through the real agent, scheduler and scripted
 * server on a fake clock: a busy file, and a model that only ever sets reminders.
 */
describe('wake-ups and pacing cannot be gamed (fake clock)', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  async function agent(settings: Partial<AgentSettings>, clock: FakeClock): Promise<void> {
    h = await createHarness({
      initialState: 'THINKING',
      settings: { thinkIntervalMs: 3000, maxIntervalMs: 30 * MINUTE, ...settings },
      alwaysOn: { timers: clock, idleSkip: true },
    });
  }

  /** A log appended every `everyMs` for `forMs`, each write reported as the watcher would. */
  async function busyLog(clock: FakeClock, everyMs: number, forMs: number): Promise<void> {
    const log = path.join(h.workspaceDir, 'app.log');
    for (let t = 0; t < forMs; t += everyMs) {
      await appendFile(log, `line at ${t}\n`);
      h.agent.wakeForChanges({ created: [], modified: ['app.log'], removed: [] });
      await clock.advance(everyMs, () => h.agent.idle());
    }
  }

  const reasons = (): string[] => h.agent.store.getState().ledger.map((r) => r.reason);
  const turns = (): number => h.agent.store.getState().ledger.length;

  /**
   * A model whose every turn makes the call `callOf(k)` (k: the turn's number) and then, its
   * result back within the same turn, ends the turn with a line of text.
   */
  function callThenDone(callOf: (k: number) => string): void {
    let requests = 0;
    h.server.setDefault(() => {
      requests += 1;
      const k = Math.ceil(requests / 2);
      return { kind: 'stream', content: requests % 2 === 1 ? callOf(k) : `Done with ${k}.` };
    });
  }

  it('a log appended every 300 ms for a minute wakes it a few times, not once per write', async () => {
    const clock = new FakeClock();
    await agent({ changeWakes: { minIntervalMs: 30_000, maxPerHour: 20 } }, clock);
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.agent.start();
    await clock.advance(0, () => h.agent.idle());
    expect(h.server.requests).toHaveLength(1);
    await busyLog(clock, 300, MINUTE);
    // 200 writes: the first look, then a change wake-up at 0 s, 30 s and 60 s at most.
    const changes = reasons().filter((r) => r === 'change').length;
    expect(changes).toBeGreaterThanOrEqual(2);
    expect(changes).toBeLessThanOrEqual(Math.ceil(MINUTE / 30_000) + 1);
    expect(h.server.requests.length).toBeLessThanOrEqual(1 + changes + 1);
    // Every change wake-up tells the model what changed.
    const notes = h.server.requests.slice(1).map((r) => JSON.stringify(r.body.messages.at(-1)));
    for (const n of notes) expect(n).toMatch(/modified: app\.log/);
  });

  it('a log appended every 5 s for two hours: change wake-ups stay under the hourly cap, with one notice an hour', async () => {
    const clock = new FakeClock();
    await agent({ changeWakes: { minIntervalMs: 30_000, maxPerHour: 10 } }, clock);
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    const notices: string[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    h.agent.start();
    await busyLog(clock, 5000, 2 * HOUR);
    const ledger = h.agent.store.getState().ledger;
    const changeAt = ledger.filter((r) => r.reason === 'change').map((r) => r.at);
    // In any hour-long window, at most 10 change wake-ups.
    for (const start of changeAt) {
      expect(changeAt.filter((t) => t >= start && t < start + HOUR).length).toBeLessThanOrEqual(10);
    }
    expect(changeAt.length).toBeGreaterThanOrEqual(10);
    // The timed looks go on resting meanwhile: 7,200 s of writes, a few dozen requests.
    expect(h.server.requests.length).toBeLessThanOrEqual(
      2 * 10 +
        maxLooksWithin(2 * HOUR, {
          thinkIntervalMs: 3000,
          maxIntervalMs: 30 * MINUTE,
        }) *
          2,
    );
    const capped = notices.filter((n) => /watch\.maxWakesPerHour/.test(n));
    expect(capped.length).toBeGreaterThanOrEqual(1);
    expect(capped.length).toBeLessThanOrEqual(3);
  });

  it('a model that sets a new reminder each cycle, worded anew each time, rests like one with nothing new', async () => {
    const clock = new FakeClock();
    const settings = { thinkIntervalMs: 3000, maxIntervalMs: 30 * MINUTE };
    await agent(settings, clock);
    callThenDone(
      (n) =>
        `Plan ${n}: I will revisit item ${n} later.\n[TOOL] remind("2h", "revisit item ${n}") [/TOOL]`,
    );
    h.agent.start();
    await clock.advance(HOUR, () => h.agent.idle());
    // 1,200 looks at the think interval were what a new reminder bought before.
    expect(turns()).toBeLessThanOrEqual(maxLooksWithin(HOUR, settings));
    expect(internalsOf(h.agent).alwaysOn.pacing.idleCycles).toBeGreaterThanOrEqual(3);
  });

  it('reminders the model sets a minute ahead in every turn: wake-ups no closer than the floor, pace not reset', async () => {
    const clock = new FakeClock();
    // Every look is sent (no idle path): only the pace can keep the count down.
    h = await createHarness({
      initialState: 'THINKING',
      settings: { thinkIntervalMs: 3000, maxIntervalMs: 30 * MINUTE },
      alwaysOn: { timers: clock, idleSkip: false },
    });
    callThenDone((n) => `Check ${n}.\n[TOOL] remind("1m", "check again ${n}") [/TOOL]`);
    h.agent.start();
    await clock.advance(HOUR, () => h.agent.idle());
    // Every turn sets one more: unchecked, each look starts a chain of wake-ups a minute
    // apart. Due reminders come together, one wake-up per 4 minutes, plus the timed looks.
    const floor = Math.ceil(HOUR / MODEL_REMINDER_FLOOR_MS) + 1;
    expect(reasons().filter((r) => r === 'schedule').length).toBeLessThanOrEqual(floor);
    expect(turns()).toBeLessThanOrEqual(floor + 6);
  });

  it('a cycle whose read finds a new result is new; the same result again is not', async () => {
    const clock = new FakeClock();
    await agent({}, clock);
    await appendFile(path.join(h.workspaceDir, 'notes.md'), 'first\n');
    callThenDone(() => 'Looking.\n[TOOL] read("notes.md") [/TOOL]');
    h.agent.start();
    await clock.advance(0, () => h.agent.idle());
    expect(internalsOf(h.agent).alwaysOn.pacing.idleCycles).toBe(0);
    await clock.advance(3000, () => h.agent.idle());
    expect(internalsOf(h.agent).alwaysOn.pacing.idleCycles).toBe(1);
    await appendFile(path.join(h.workspaceDir, 'notes.md'), 'second\n');
    await clock.advance(30_000, () => h.agent.idle());
    expect(internalsOf(h.agent).alwaysOn.pacing.idleCycles).toBe(0);
  });

  it('with the 5-minute prompt-cache TTL, no look comes just past it: 0, 30 s, 4 min later, then 30 min', async () => {
    const clock = new FakeClock();
    h = await createHarness({
      initialState: 'THINKING',
      settings: { thinkIntervalMs: 3000, maxIntervalMs: 30 * MINUTE, cacheTtlMs: 5 * MINUTE },
      alwaysOn: { timers: clock, idleSkip: false },
    });
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.agent.start();
    await clock.advance(HOUR, () => h.agent.idle());
    const ledger = h.agent.store.getState().ledger;
    const gaps = ledger.slice(1).map((r, i) => r.at - ledger[i]!.at);
    expect(gaps.slice(0, 3)).toEqual([30_000, 4 * MINUTE, 30 * MINUTE]);
    for (const g of gaps) expect(g <= 4 * MINUTE || g >= 15 * MINUTE).toBe(true);
  });
});
