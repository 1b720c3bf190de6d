import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maxLooksWithin } from '../../src/scheduler/pacing.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { waitForStore } from '../helpers/waitFor.js';
import { internalsOf } from '../helpers/agentInternals.js';

type Sent = { role: string; content: string }[];
const sent = (h: Harness, i: number): Sent => h.server.requests[i]!.body.messages as Sent;

describe('append-only, cache-friendly requests', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('over 6 autonomous turns with tool calls, each request starts with the previous one, byte for byte', async () => {
    h = await createHarness({ initialState: 'THINKING' });
    for (let i = 0; i < 12; i++) {
      await writeFile(path.join(h.workspaceDir, `f${i}.txt`), `file ${i}`);
    }
    // Each turn is two requests: a reply that reads a file, then (its result back at once,
    // in the same turn) a reply without calls that ends the turn.
    h.server.setDefault((req) =>
      req.index % 2 === 0
        ? {
            kind: 'stream',
            content: `Reading file ${req.index}.\n[TOOL] read("f${req.index}.txt") [/TOOL]`,
          }
        : { kind: 'stream', content: `Read file ${req.index - 1}.` },
    );
    h.agent.start();
    await h.server.waitForRequest(11);
    h.agent.send({ type: 'pause' });
    await h.agent.idle();
    const bodies = h.server.requests.slice(0, 12).map((r) => JSON.stringify(r.body.messages));
    for (let i = 1; i < bodies.length; i++) {
      // The previous list without its closing bracket is a prefix of this one.
      expect(bodies[i]!.startsWith(bodies[i - 1]!.slice(0, -1))).toBe(true);
      expect(bodies[i]!.length).toBeGreaterThan(bodies[i - 1]!.length);
    }
    // The system prompt carries no clock: the per-turn time is in the note at the end.
    expect(sent(h, 0)[0]!.content).not.toMatch(/Now:/);
    expect(new Set(h.server.requests.map((r) => r.body.messages[0].content)).size).toBe(1);
    expect(sent(h, 10).at(-1)!.content).toMatch(
      /Autonomous cycle 6\. Now: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z/,
    );
    // A turn's second step answers its own call's result: no new note, no new cycle.
    expect(sent(h, 11).at(-1)!.content).toContain('file 10');
    expect(JSON.stringify(sent(h, 11))).not.toMatch(/Autonomous cycle 7/);
    expect(
      h.agent.store
        .getState()
        .ledger.slice(0, 5)
        .map((r) => r.tools.length),
    ).toEqual([1, 1, 1, 1, 1]);
  });

  it('records cached prompt tokens (OpenAI style and DeepSeek style) for the status bar and /cost', async () => {
    h = await createHarness();
    h.server.push(
      {
        kind: 'stream',
        content: 'one',
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 10,
          prompt_tokens_details: { cached_tokens: 768 },
        },
      },
      {
        kind: 'stream',
        content: 'two',
        usage: { prompt_tokens: 1100, completion_tokens: 10, prompt_cache_hit_tokens: 1024 },
      },
      { kind: 'stream', content: 'three' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'first' });
    await waitForStore(h.agent.store, (s) => s.lastCachedTokens === 768, 'the first cached count');
    h.agent.send({ type: 'submit', text: 'second' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.sessionCachedTokens === 1792 && st.ledger.length === 2,
      'both',
    );
    expect(s.ledger.map((r) => r.tokensCached)).toEqual([768, 1024]);
    h.agent.send({ type: 'submit', text: '/cost' });
    const done = await waitForStore(
      h.agent.store,
      (st) => st.notices.some((n) => n.text.includes('cached 1.8k')),
      'the /cost answer',
    );
    expect(done.notices.at(-1)!.text).toMatch(/prompt 2\.1k \(cached 1\.8k, 85%\)/);
  });
});

describe('pacing and the zero-token idle path (fake clock)', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('"nothing new" with thinkIntervalMs 300: requests in 20 s stay within the pacing table', async () => {
    const clock = new FakeClock();
    const settings = { thinkIntervalMs: 300, maxIntervalMs: 30 * 60_000 };
    h = await createHarness({
      initialState: 'THINKING',
      settings,
      alwaysOn: { timers: clock, idleSkip: true },
    });
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.agent.start();
    await clock.advance(20_000, () => h.agent.idle());
    const allowed = maxLooksWithin(20_000, settings);
    expect(allowed).toBe(1);
    expect(h.server.requests.length).toBeLessThanOrEqual(allowed);
    // A whole idle hour: timer looks with nothing changed cost no request at all.
    await clock.advance(60 * 60_000, () => h.agent.idle());
    expect(h.server.requests).toHaveLength(1);
    expect(internalsOf(h.agent).alwaysOn.pacing.interval()).toBe(30 * 60_000);
    // Without the idle path the table still bounds it: 1 + 30 s + 5 min + 30 min steps.
    expect(maxLooksWithin(61 * 60_000, settings)).toBeLessThanOrEqual(6);
  });

  it('without the idle path, looks follow the table: 300 ms → 30 s → 5 min → 30 min', async () => {
    const clock = new FakeClock();
    const settings = { thinkIntervalMs: 300, maxIntervalMs: 30 * 60_000 };
    h = await createHarness({ initialState: 'THINKING', settings, alwaysOn: { timers: clock } });
    h.server.setDefault({ kind: 'stream', content: 'Nothing new.' });
    h.agent.start();
    await clock.advance(2 * 60 * 60_000, () => h.agent.idle());
    const at = h.agent.store
      .getState()
      .ledger.map((r) => r.at - h.agent.store.getState().ledger[0]!.at);
    expect(at.slice(0, 5)).toEqual([0, 30_000, 330_000, 2_130_000, 3_930_000]);
    expect(h.server.requests.length).toBeLessThanOrEqual(maxLooksWithin(2 * 60 * 60_000, settings));
  });

  it('a reminder set for one minute ahead starts a turn then, even after [WAIT]', async () => {
    const clock = new FakeClock();
    h = await createHarness({ initialState: 'THINKING', alwaysOn: { timers: clock } });
    h.server.push(
      {
        kind: 'stream',
        content: 'I will look later.\n[TOOL] remind("1m", "check the build log") [/TOOL]',
      },
      { kind: 'stream', content: 'Noted. [WAIT]' },
      { kind: 'stream', content: 'The build log is clean. [WAIT]' },
    );
    const due: unknown[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'reminders_due') due.push(...e.reminders);
    });
    h.agent.start();
    await clock.advance(1000, () => h.agent.idle());
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(h.server.requests).toHaveLength(2);
    await clock.advance(58_000, () => h.agent.idle());
    expect(h.server.requests).toHaveLength(2);
    await clock.advance(2_000, () => h.agent.idle());
    expect(h.server.requests).toHaveLength(3);
    expect(sent(h, 2).at(-1)!.content).toMatch(
      /Woke up for a reminder.*Reminder due: check the build log/s,
    );
    // The event says which reminder the turn took, and who set it (the notifier asks).
    expect(due).toEqual([expect.objectContaining({ what: 'check the build log', by: 'model' })]);
    // The remind call and the reply after its result are one turn.
    expect(h.agent.store.getState().ledger.map((r) => r.reason)).toEqual(['timer', 'schedule']);
  });
});

describe('budgets hold before a request', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('a daily budget the next request would pass pauses before sending it, with the reason', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { tokenBudgetPerDay: 300 } });
    h.server.setDefault({ kind: 'stream', content: 'hello' });
    h.agent.start();
    const s = await waitForStore(
      h.agent.store,
      (st) => st.machine === 'PAUSED' && st.ledger.length === 1,
      'the pause',
    );
    expect(h.server.requests).toHaveLength(0);
    expect(s.pauseReason).toMatch(
      /paused before sending.*daily token budget \(0 of 300 used.*refills at \d\d:\d\d.*tokenBudgetPerDay/,
    );
    expect(s.ledger.at(-1)).toMatchObject({ end: 'paused', tokensIn: 0 });
  });
});
