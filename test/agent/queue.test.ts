/**
 * Talking without interrupting (issue #28.2) through the Agent API: `queue` waits for the turn
 * boundary without stopping the stream in flight (the scripted server on 127.0.0.1 sees no
 * abort), `queue_changed` reports the queue after every change, `edit_queued`/`drop_queued`
 * change what is delivered, and the snapshot carries the queue for a screen that attaches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/api/commands.js';
import type { AgentEvent, QueuedMessage } from '../../src/api/events.js';
import { createMirrorStore, type AgentSnapshot } from '../../src/store/agentStore.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

type Wire = { role: string; content: string };
const userTexts = (h: Harness, n: number): string[] =>
  (h.server.requests[n]!.body.messages as Wire[])
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content));

/** The queue as each `queue_changed` reported it (texts only). */
function queueLog(h: Harness): string[][] {
  const log: string[][] = [];
  h.agent.subscribe((e: AgentEvent) => {
    if (e.type === 'queue_changed') log.push(e.items.map((i: QueuedMessage) => i.text));
  });
  return log;
}

const settled = (h: Harness, messages: number, what: string): Promise<unknown> =>
  waitForStore(h.agent.store, (s) => s.messages.length === messages && !h.agent.busy, what);

describe('queue: talk without interrupting', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('a message queued while a reply streams does not close that stream, and is answered next', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push(
      {
        kind: 'stream',
        content: ['Part one, ', 'part two, ', 'part three. ', '[WAIT]'],
        chunkDelayMs: 40,
      },
      { kind: 'stream', content: 'Noted your aside. [WAIT]' },
    );
    const log = queueLog(h);
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'tell me a story' });
    await waitForStore(h.agent.store, (s) => s.liveReply !== '', 'the reply streaming');
    expect(h.agent.send({ type: 'queue', text: 'an aside' })).toEqual({ ok: true });
    expect(h.agent.store.getState().queued.map((q) => q.text)).toEqual(['an aside']);
    await settled(h, 4, 'both answers');
    // The first stream ran to its end: the server saw no close before it finished.
    expect(h.server.requests[0]!.completed).toBe(true);
    expect(h.server.requests[0]!.closedAt).toBeUndefined();
    const texts = h.agent.store.getState().messages.map((m) => m.content);
    expect(texts[1]).toContain('part three.');
    expect(texts[2]).toBe('an aside');
    // The next request carries it as the user's last words, after the whole first reply.
    expect(userTexts(h, 1).at(-1)).toBe('an aside');
    const wire = h.server.requests[1]!.body.messages as Wire[];
    expect(wire.at(-2)!.role).toBe('assistant');
    expect(wire.at(-2)!.content).toContain('part three.');
    // Shown while it waited; gone from the queue once RESTORE took it.
    expect(log).toEqual([['an aside'], []]);
    expect(h.agent.store.getState().queued).toEqual([]);
  });

  it('a tool chain in flight runs to its end before the queued message is delivered', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push(
      { kind: 'stream', content: ['Looking.\n', '[TOOL] ls(".") [/TOOL]'], chunkDelayMs: 40 },
      { kind: 'stream', content: 'Nothing much here. [WAIT]' },
      { kind: 'stream', content: 'Sure, later. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'what is here?' });
    await waitForStore(h.agent.store, (s) => s.liveReply !== '', 'the first step streaming');
    h.agent.send({ type: 'queue', text: 'and then tidy up' });
    await h.server.waitForRequest(2);
    await waitUntil(() => !h.agent.busy, 'the answer to the queued message');
    // The chain's second step carried the tool result, not the queued words.
    expect(userTexts(h, 1)).not.toContain('and then tidy up');
    expect(JSON.stringify(h.server.requests[1]!.body.messages.at(-1))).toMatch(/ls|result/i);
    expect(userTexts(h, 2).at(-1)).toBe('and then tidy up');
    for (const r of h.server.requests) expect(r.closedAt).toBeUndefined();
  });

  it('edit and drop before delivery change what is delivered; bad ids and empty text are named', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push(
      { kind: 'stream', content: 'first', stallAfterChunks: 1 },
      { kind: 'stream', content: 'Answered. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'start' });
    await h.server.waitForRequest(0);
    h.agent.send({ type: 'queue', text: 'keep me' });
    h.agent.send({ type: 'queue', text: 'drop me' });
    h.agent.send({ type: 'queue', text: 'typo' });
    const [keep, drop, typo] = h.agent.store.getState().queued;
    expect(h.agent.send({ type: 'drop_queued', id: drop!.id })).toEqual({ ok: true });
    expect(h.agent.send({ type: 'edit_queued', id: typo!.id, text: 'fixed' })).toEqual({
      ok: true,
    });
    expect(h.agent.store.getState().queued.map((q) => q.text)).toEqual(['keep me', 'fixed']);
    const empty = h.agent.send({ type: 'edit_queued', id: keep!.id, text: '  ' });
    expect(empty.ok === false && empty.problem).toMatch(/cannot be edited to nothing.*drop_queued/);
    const gone = h.agent.send({ type: 'drop_queued', id: drop!.id });
    expect(gone.ok === false && gone.problem).toMatch(
      /no queued message has id "q\d+".*queue_changed/,
    );
    expect(h.agent.send({ type: 'edit_queued', id: 'nope', text: 'x' }).ok).toBe(false);

    // The stalled reply is stopped by hand; the queued messages follow it.
    h.agent.send({ type: 'interrupt' });
    await h.server.waitForRequest(1);
    await waitUntil(() => !h.agent.busy, 'the answer');
    // The queued messages reach the model together, as the user's words after the cut-off reply.
    const users = userTexts(h, 1).join('\n');
    expect(users).toMatch(/keep me[\s\S]*fixed/);
    expect(users).not.toMatch(/drop me|typo/);
    // Delivered: no longer editable.
    const late = h.agent.send({ type: 'edit_queued', id: keep!.id, text: 'too late' });
    expect(late.ok).toBe(false);
  });

  it('dropping every queued message leaves no empty user turn behind', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push({
      kind: 'stream',
      content: ['Slow ', 'answer. ', '[WAIT]'],
      chunkDelayMs: 40,
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'go' });
    await h.server.waitForRequest(0);
    h.agent.send({ type: 'queue', text: 'never mind' });
    const id = h.agent.store.getState().queued[0]!.id;
    h.agent.send({ type: 'drop_queued', id });
    await settled(h, 2, 'the first answer');
    await h.agent.idle();
    expect(h.server.requests).toHaveLength(1);
    expect(h.agent.state).toBe('AWAITING_INPUT');
  });

  it('resting, waiting or paused, a queued message is answered at once (paused stays paused)', async () => {
    h = await createHarness({ settings: { thinkIntervalMs: 3_600_000, maxIntervalMs: 3_600_000 } });
    h.server.setDefault({ kind: 'stream', content: 'Heard you. [WAIT]' });
    h.agent.start();
    expect(h.agent.state).toBe('AWAITING_INPUT');
    h.agent.send({ type: 'queue', text: 'while you wait' });
    await h.server.waitForRequest(0);
    expect(userTexts(h, 0).at(-1)).toBe('while you wait');
    await waitUntil(() => !h.agent.busy && h.agent.state === 'AWAITING_INPUT', 'answered');

    // Resting between looks (THINKING, the next look an hour away): no waiting for the timer.
    h.server.setDefault({ kind: 'stream', content: 'Looked around, nothing new.' });
    h.agent.send({ type: 'resume' });
    await h.server.waitForRequest(1);
    await waitUntil(() => !h.agent.busy, 'the look');
    expect(h.agent.state).toBe('THINKING');
    h.server.setDefault({ kind: 'stream', content: 'Heard you. [WAIT]' });
    h.agent.send({ type: 'queue', text: 'between looks' });
    await h.server.waitForRequest(2);
    expect(userTexts(h, 2).at(-1)).toBe('between looks');
    await waitUntil(() => !h.agent.busy, 'answered');

    h.agent.send({ type: 'pause' });
    const paused = h.server.requests.length;
    h.agent.send({ type: 'queue', text: 'while paused' });
    await h.server.waitForRequest(paused);
    expect(userTexts(h, paused).at(-1)).toBe('while paused');
    await waitUntil(() => !h.agent.busy, 'answered');
    expect(h.agent.state).toBe('PAUSED');
  });

  it('the snapshot carries the queue, and a mirror following queue_changed keeps it', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push(
      { kind: 'stream', content: 'held', stallAfterChunks: 1 },
      { kind: 'stream', content: 'Ok. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'start' });
    await h.server.waitForRequest(0);
    h.agent.send({ type: 'queue', text: 'one' });
    const snapshot = JSON.parse(JSON.stringify(h.agent.snapshot())) as AgentSnapshot;
    expect(snapshot.queued).toEqual([
      expect.objectContaining({ text: 'one', id: expect.any(String) }),
    ]);
    const mirror = createMirrorStore(snapshot);
    h.agent.subscribe((e) => mirror.getState().follow(JSON.parse(JSON.stringify(e)) as AgentEvent));
    h.agent.send({ type: 'queue', text: 'two' });
    expect(mirror.getState().queued.map((q) => q.text)).toEqual(['one', 'two']);
    h.agent.send({ type: 'edit_queued', id: snapshot.queued[0]!.id, text: 'uno' });
    expect(mirror.getState().queued).toEqual(h.agent.store.getState().queued);
    h.agent.send({ type: 'interrupt' });
    await waitUntil(() => h.server.requests.length === 2 && !h.agent.busy, 'delivered');
    expect(mirror.getState().queued).toEqual([]);
  });

  it('parseCommand names what is wrong with edit_queued and drop_queued', () => {
    expect(parseCommand({ type: 'drop_queued', id: 'q1' })).toEqual({
      type: 'drop_queued',
      id: 'q1',
    });
    expect(parseCommand({ type: 'drop_queued' })).toMatchObject({
      problem: expect.stringMatching(/needs the queued message's "id".*queue_changed/),
    });
    expect(parseCommand({ type: 'edit_queued', id: 3, text: 'x' })).toMatchObject({
      problem: expect.stringMatching(/"id" string/),
    });
    expect(parseCommand({ type: 'edit_queued', id: 'q1' })).toMatchObject({
      problem: expect.stringMatching(/needs a "text" string/),
    });
  });
});
