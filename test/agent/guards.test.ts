import { swapHistory } from '../helpers/agentInternals.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../src/core/messages.js';
import type { AgentEvent } from '../../src/api/events.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

const NOTES = [
  'Found a folder of photos from 2019.',
  'The budget sheet has three tabs.',
  'A draft letter to the landlord is unfinished.',
  'There is a recipe collection in markdown.',
  'Old tax forms sit in archive/.',
  'The music folder is mostly FLAC.',
];

describe('auto-pause rules', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('pauses after maxAutonomousCycles cycles without input, with the reason shown', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { maxAutonomousCycles: 3 } });
    h.server.setDefault((req) => ({ kind: 'stream', content: NOTES[req.index % NOTES.length]! }));
    h.agent.start();
    const s = await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the cycle pause');
    expect(s.pauseReason).toContain('3 autonomous cycles');
    expect(s.pauseReason).toContain('maxAutonomousCycles');
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(3);
    expect(h.agent.store.getState().notices.at(-1)?.text).toBe(s.pauseReason);
  });

  it('a user message starts a fresh cycle count', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { maxAutonomousCycles: 2 } });
    h.server.setDefault((req) => ({ kind: 'stream', content: NOTES[req.index % NOTES.length]! }));
    h.agent.start();
    await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the first pause');
    await h.agent.idle();
    h.agent.send({ type: 'resume' });
    // After resume the count restarts: two more autonomous cycles, then paused again.
    await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the second pause');
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(4);
  });

  it('pauses before sending a request that would pass the hourly token budget', async () => {
    // Each request costs 6000 by the server's count: the third would pass 12 000, so it is
    // never sent.
    h = await createHarness({ initialState: 'THINKING', settings: { tokenBudgetPerHour: 12_000 } });
    h.server.setDefault((req) => ({
      kind: 'stream',
      content: NOTES[req.index % NOTES.length]!,
      usage: { prompt_tokens: 5980, completion_tokens: 20 },
    }));
    h.agent.start();
    const s = await waitForStore(
      h.agent.store,
      (st) => st.machine === 'PAUSED',
      'the budget pause',
    );
    expect(s.pauseReason).toMatch(/paused before sending: the next request \(~\d+ tokens\)/);
    expect(s.pauseReason).toMatch(/hourly token budget \(12000 of 12000 used|12000/);
    expect(s.pauseReason).toMatch(/refills at \d\d:\d\d/);
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(2);
  });

  it('the loop guard pauses when the same tool call repeats three times', async () => {
    h = await createHarness({ initialState: 'THINKING' });
    h.server.setDefault((req) => ({
      kind: 'stream',
      content: `${NOTES[req.index % NOTES.length]!}\n[TOOL] ls(".") [/TOOL]`,
    }));
    h.agent.start();
    const s = await waitForStore(h.agent.store, (st) => st.machine === 'PAUSED', 'the loop pause');
    expect(s.pauseReason).toMatch(/loop guard: the same tool call ran 3 times in a row/);
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(3);
  });

  it('near-identical replies no longer pause: the agent rests longer instead', async () => {
    h = await createHarness({ initialState: 'THINKING', settings: { maxIntervalMs: 60_000 } });
    h.server.setDefault((req) => ({
      kind: 'stream',
      content: `Nothing new in the workspace (check ${req.index}).`,
    }));
    h.agent.start();
    const s = await waitForStore(
      h.agent.store,
      (st) => st.nextTurnAt !== undefined && st.nextTurnAt - Date.now() > 20_000,
      'a long rest',
    );
    expect(s.machine).toBe('THINKING');
    expect(s.pauseReason).toBeUndefined();
    expect(h.server.requests).toHaveLength(1);
  });

  it('a history write error pauses the agent with the reason and keeps the message on screen', async () => {
    h = await createHarness();
    const kept: HistoryMessage[] = [];
    let failing = true;
    swapHistory(h.agent, {
      messages: () => kept,
      append: (m) => {
        kept.push(m);
        return failing
          ? { ok: false, error: { message: 'no space left on device: free disk space on /tmp/x' } }
          : { ok: true };
      },
    });
    h.server.push({ kind: 'stream', content: 'a reply that cannot be saved' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.machine === 'PAUSED',
      'the write-error pause',
    );
    expect(s.pauseReason).toMatch(/could not be saved.*no space left/);
    expect(s.messages.map((m) => m.content)).toContain('a reply that cannot be saved');
    failing = false;
  });

  it('estimates usage when the server sends none', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'a short answer [WAIT]', usage: false });
    const usage: Extract<AgentEvent, { type: 'usage' }>[] = [];
    h.agent.subscribe((e) => {
      if (e.type === 'usage') usage.push(e);
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    await waitForStore(
      h.agent.store,
      (st) => st.machine === 'AWAITING_INPUT' && st.messages.length === 2,
      'reply',
    );
    expect(usage).toHaveLength(1);
    expect(usage[0]!.estimated).toBe(true);
    expect(usage[0]!.usage.completionTokens).toBeGreaterThan(0);
    expect(usage[0]!.usage.promptTokens).toBeGreaterThan(100); // the system prompt alone
    expect(h.agent.store.getState().sessionTokens).toBe(usage[0]!.usage.totalTokens);
  });

  it("uses the server's usage when it sends it", async () => {
    h = await createHarness();
    h.server.push({
      kind: 'stream',
      content: 'ok [WAIT]',
      usage: { prompt_tokens: 1234, completion_tokens: 5 },
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.sessionTokens > 0 && st.machine === 'AWAITING_INPUT',
      'usage',
    );
    expect(s.sessionTokens).toBe(1239);
    expect(s.contextTokens).toBe(1234);
  });
});

describe('a listener that throws', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('does not stop the agent; it becomes a notice', async () => {
    h = await createHarness();
    h.agent.subscribe((e) => {
      if (e.type === 'message_update') throw new Error('a broken pane');
    });
    h.server.push({ kind: 'stream', content: 'still fine [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hi' });
    const s = await waitForStore(
      h.agent.store,
      (st) => st.machine === 'AWAITING_INPUT' && st.messages.length === 2,
      'reply',
    );
    expect(s.messages[1]!.content).toBe('still fine [WAIT]');
    expect(s.notices.some((n) => n.text.includes('a broken pane'))).toBe(true);
  });
});
