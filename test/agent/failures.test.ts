import { afterEach, describe, expect, it } from 'vitest';
import type { Step } from '../helpers/scriptedServer.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

const faults: [string, Step, RegExp][] = [
  ['a 500', { kind: 'error', status: 500 }, /500|server/i],
  ['a 429 with Retry-After', { kind: 'error', status: 429, retryAfter: '0' }, /rate|429/i],
  [
    'a malformed SSE line',
    { kind: 'stream', content: ['a', 'b', 'c'], malformedAfterChunks: 1, finishReason: 'stop' },
    /malformed|invalid|json|response/i,
  ],
  [
    'a stall',
    { kind: 'stream', content: ['partial ', 'reply'], stallAfterChunks: 1 },
    /stall|no data|timed out|timeout/i,
  ],
  [
    'a dropped connection',
    { kind: 'stream', content: ['partial ', 'reply ', 'here'], dropAfterChunks: 1 },
    /drop|connection|network|closed/i,
  ],
];

describe('failures', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it.each(faults)(
    "%s is retried inside the user's turn: the same request, told as a retry, then the answer",
    async (_name, fault, pattern) => {
      h = await createHarness({ streamIdleTimeoutMs: 300 });
      h.server.push(fault, { kind: 'stream', content: 'recovered [WAIT]' });
      const errors: string[] = [];
      const retries: string[] = [];
      const turns: string[] = [];
      h.agent.subscribe((e) => {
        if (e.type === 'error') errors.push(e.error.message);
        if (e.type === 'retrying') retries.push(e.error.message);
        if (e.type === 'turn_start') turns.push(e.trigger);
      });
      h.agent.start();
      h.agent.send({ type: 'submit', text: 'hello' });
      await waitForStore(
        h.agent.store,
        (s) =>
          s.machine === 'AWAITING_INPUT' &&
          s.messages.some((m) => m.content === 'recovered [WAIT]'),
        'recovery',
      );
      // One turn, the user's: the retry is no autonomous cycle and no error.
      expect(turns).toEqual(['user']);
      expect(errors).toEqual([]);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatch(pattern);
      expect(h.server.requests).toHaveLength(2);
      // The retry is the same request: the user's message, as the user's, last.
      const [first, second] = h.server.requests.map((r) => r.body.messages);
      expect(second).toEqual(first);
      expect(second.at(-1)).toEqual({ role: 'user', content: 'hello' });
      expect(JSON.stringify(second)).not.toContain('not here');
      // The broken try is not kept; the user sees the retry as a warning.
      const contents = h.session.messages().map((m) => m.content);
      expect(contents).toEqual(['hello', 'recovered [WAIT]']);
      const warned = h.agent.store.getState().notices.filter((n) => n.level === 'warn');
      expect(warned.some((n) => /retrying in/.test(n.text))).toBe(true);
    },
  );

  it('honours Retry-After before retrying', async () => {
    h = await createHarness({ settings: { backoff: { baseMs: 1, maxMs: 5 } } });
    h.server.push(
      { kind: 'error', status: 429, retryAfter: '1' },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    const first = await h.server.waitForRequest(0);
    const second = await h.server.waitForRequest(1, 5000);
    // With a 5 ms cap the back-off alone would retry at once; Retry-After asked for 1 s.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('pauses with the last error after repeated failures', async () => {
    h = await createHarness({ settings: { maxConsecutiveFailures: 3 } });
    h.server.setDefault({ kind: 'error', status: 503 });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.machine === 'PAUSED',
      'the failure pause',
    );
    expect(s.pauseReason).toMatch(/3 failed requests in a row/);
    expect(s.pauseReason).toMatch(/503|server/i);
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(3);
  });
});

describe('after the tries are used up', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('Esc during the back-off stops the wait at once: no further request', async () => {
    h = await createHarness({ settings: { backoff: { baseMs: 60_000, maxMs: 60_000 } } });
    h.server.push({ kind: 'error', status: 500 });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    await waitForStore(
      h.agent.store,
      (s) => s.notices.some((n) => /retrying in 60s/.test(n.text)),
      'the retry notice',
    );
    const at = performance.now();
    h.agent.send({ type: 'interrupt' });
    await h.agent.idle();
    expect(performance.now() - at).toBeLessThan(2_000);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(h.server.requests).toHaveLength(1);
  });

  it("a message sent to the paused agent gets its own tries, as the user's turn", async () => {
    h = await createHarness({ settings: { maxConsecutiveFailures: 2 } });
    h.server.push(
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
      { kind: 'stream', content: 'Back. [WAIT]' },
    );
    const turns: string[] = [];
    h.agent.subscribe((e) => void (e.type === 'turn_start' && turns.push(e.trigger)));
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'first' });
    await waitForStore(h.agent.store, (s) => s.machine === 'PAUSED', 'the pause');
    await h.agent.idle();
    h.agent.send({ type: 'submit', text: 'second' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.content === 'Back. [WAIT]'),
      'the answer',
    );
    expect(h.server.requests).toHaveLength(4);
    expect(turns).toEqual(['user', 'user']);
    expect(h.server.requests[3]!.body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(h.server.requests[3]!.body.messages.at(-1))).toContain('second');
  });
});

describe('errors that retrying cannot fix', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it.each([
    ['a rejected key (401)', 401, /key/i],
    ['an unknown model (404)', 404, /model|base URL/i],
  ])('%s pauses at once with the fix', async (_name, status, pattern) => {
    h = await createHarness();
    h.server.setDefault({ kind: 'error', status });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    const s = await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the pause');
    expect(s.pauseReason).toMatch(pattern);
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('a reply cut off by an error', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('once the tries are used up, is kept, marked as failed, and the model is told it was an error, not the user', async () => {
    h = await createHarness({ settings: { maxConsecutiveFailures: 1 } });
    h.server.push(
      { kind: 'stream', content: ['partial ', 'answer ', 'here'], dropAfterChunks: 2 },
      { kind: 'stream', content: 'again [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    await waitForStore(h.agent.store, (s) => s.machine === 'PAUSED', 'the pause');
    await h.agent.idle();
    const kept = h.session.messages().find((m) => m.role === 'assistant')!;
    expect(kept.content).toBe('partial answer ');
    expect(kept.failed).toBe(true);
    expect(kept.interrupted).toBeUndefined();
    h.agent.send({ type: 'submit', text: 'go on' });
    const next = await h.server.waitForRequest(1);
    const sent = JSON.stringify(next.body.messages);
    expect(sent).toContain('[cut off by a connection error]');
    expect(sent).not.toContain('[interrupted by the user]');
  });
});

describe('empty replies', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('count as nothing new: the agent rests (30 s and more) instead of asking again', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { maxIntervalMs: 60_000 } });
    h.server.setDefault({ kind: 'stream', content: '' });
    h.agent.start();
    const s = await waitForStore(
      h.agent.store,
      (st) => st.nextTurnAt !== undefined && st.nextTurnAt - Date.now() > 20_000,
      'the rest',
    );
    expect(s.machine).toBe('THINKING');
    expect(h.server.requests).toHaveLength(1);
  });
});
