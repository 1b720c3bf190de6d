/**
 * Steer vs queue (issue #33, point 9), headless: a real agent against the scripted server.
 * A reply asks for two calls, the first gated; the user steers while it runs. The first
 * call finishes and its result is kept, the second never starts and answers "deferred by
 * the user", and the same turn's next request carries the steer message as the user's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import type { Tool } from '../../src/tools/types.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

type Sent = { role: string; content: string; tool_call_id?: string }[];

/** A tool that runs until released, and one that counts its runs. */
function tools(): {
  gate: Tool;
  ping: Tool;
  started: Promise<void>;
  release(): void;
  pings(): number;
} {
  let release!: () => void;
  let started!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const startedP = new Promise<void>((r) => (started = r));
  let pings = 0;
  const param = [{ name: 'id', type: 'string' as const, description: 'id' }];
  return {
    gate: {
      name: 'gate',
      description: 'runs until the test releases it',
      kind: 'read',
      params: param,
      run: async () => {
        started();
        await released;
        return { ok: true, data: 'gate finished: 42 rows' };
      },
    },
    ping: {
      name: 'ping',
      description: 'counts its runs',
      kind: 'read',
      params: param,
      run: () => {
        pings += 1;
        return Promise.resolve({ ok: true, data: 'pong' });
      },
    },
    started: startedP,
    release,
    pings: () => pings,
  };
}

describe('steer', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.dispose());

  it('text calls: the call not yet started is deferred, the message is read in the same turn', async () => {
    const t = tools();
    h = await createHarness({ extraTools: [t.gate, t.ping] });
    h.server.push(
      { kind: 'stream', content: 'Working.\n[TOOL] gate("1") [/TOOL]\n[TOOL] ping("2") [/TOOL]' },
      { kind: 'stream', content: 'Only the first, then. [WAIT]' },
    );
    const turns: AgentEvent[] = [];
    h.agent.subscribe((e) => void (e.type === 'turn_start' && turns.push(e)));
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'run both' });
    await t.started;
    expect(h.agent.send({ type: 'steer', text: 'skip the ping, please' })).toEqual({ ok: true });
    t.release();
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', 'the answer');
    await h.agent.idle();

    expect(t.pings()).toBe(0);
    expect(turns).toHaveLength(1);
    expect(h.server.requests).toHaveLength(2);
    const sent = h.server.requests[1]!.body.messages as Sent;
    const last = sent.at(-1)!;
    // The user's side of the exchange: both results, then the user's words, as the user's.
    expect(last.role).toBe('user');
    expect(last.content).toContain('[RESULT gate("1")] ok\ngate finished: 42 rows');
    expect(last.content).toMatch(/\[RESULT ping\("2"\)\] error\ndeferred by the user/);
    expect(last.content.trimEnd().endsWith('skip the ping, please')).toBe(true);

    const log = h.agent.store.getState().toolLog;
    expect(log.map((e) => [e.call, e.status, e.summary])).toEqual([
      ['gate("1")', 'ok', 'gate finished: 42 rows'],
      ['ping("2")', 'skipped', 'deferred by the user'],
    ]);
    // The history holds it in order: the reply, its two results, the steer, the answer.
    const stored = h.session.messages().map((m) => [m.role, m.content.slice(0, 20)]);
    expect(stored.slice(-5)).toEqual([
      ['assistant', 'Working.\n[TOOL] gate'],
      ['tool', '[RESULT gate("1")] o'],
      ['tool', '[RESULT ping("2")] e'],
      ['user', 'skip the ping, pleas'],
      ['assistant', 'Only the first, then'],
    ]);
  });

  it('native calls: the deferred call is answered by id, the steer follows as a user message', async () => {
    const t = tools();
    h = await createHarness({ extraTools: [t.gate, t.ping] });
    h.server.push(
      {
        kind: 'stream',
        content: 'On it.',
        toolCalls: [
          { id: 'c1', name: 'gate', arguments: '{"id":"1"}' },
          { id: 'c2', name: 'ping', arguments: '{"id":"2"}' },
        ],
      },
      { kind: 'stream', content: 'Understood. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'run both' });
    await t.started;
    h.agent.send({ type: 'steer', text: 'use the staging table instead' });
    t.release();
    await waitForStore(h.agent.store, (s) => s.machine === 'AWAITING_INPUT', 'the answer');
    await h.agent.idle();

    expect(t.pings()).toBe(0);
    const sent = h.server.requests[1]!.body.messages as Sent;
    const tail = sent.slice(-3);
    expect(tail.map((m) => [m.role, m.tool_call_id])).toEqual([
      ['tool', 'c1'],
      ['tool', 'c2'],
      ['user', undefined],
    ]);
    expect(tail[0]!.content).toContain('gate finished: 42 rows');
    expect(tail[1]!.content).toContain('deferred by the user');
    expect(tail[2]!.content).toBe('use the staging table instead');
  });

  it('a steer the turn has no boundary for (its last reply) is answered by the next turn', async () => {
    h = await createHarness();
    h.server.push(
      { kind: 'stream', content: Array.from({ length: 40 }, () => 'la '), chunkDelayMs: 10 },
      { kind: 'stream', content: 'Noted. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'sing' });
    await waitForStore(h.agent.store, (s) => s.liveReply.length > 3, 'some streamed text');
    h.agent.send({ type: 'steer', text: 'and then stop' });
    await waitForStore(
      h.agent.store,
      (s) =>
        s.machine === 'AWAITING_INPUT' && s.messages.some((m) => m.content === 'Noted. [WAIT]'),
      'the steer answered',
    );
    // The song was not cut short; the steer was the next request's last user message.
    expect(h.session.messages().some((m) => m.interrupted)).toBe(false);
    const sent = h.server.requests[1]!.body.messages as Sent;
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'and then stop' });
  });

  it('with nothing in flight a steer is a plain message; an empty one is refused', async () => {
    h = await createHarness();
    h.server.push({ kind: 'stream', content: 'Hello. [WAIT]' });
    h.agent.start();
    expect(h.agent.send({ type: 'steer', text: '  ' })).toMatchObject({ ok: false });
    h.agent.send({ type: 'steer', text: 'hi' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.content === 'Hello. [WAIT]'),
      'the answer',
    );
    const sent = h.server.requests[0]!.body.messages as Sent;
    expect(sent.at(-1)!.content).toContain('hi');
  });
});
