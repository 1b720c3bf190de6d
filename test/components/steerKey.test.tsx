/**
 * The steer key through the screen (issue #33, point 9): the rendered app drives a real agent
 * against the scripted server on 127.0.0.1. While the first of two calls runs, `>` opens the
 * queue line, the hint offers Tab to steer, and Tab sends the message to steer: the second
 * call is deferred (the tool log says so), the message is the next request's user text, and
 * Enter on the queue line still queues.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { resolveKey, type KeyContext } from '../../components/keys/bindings.js';
import type { Tool } from '../../src/tools/types.js';
import { createHarness, type Harness as AgentHarness } from '../helpers/agentHarness.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { waitForStore } from '../helpers/waitFor.js';

let a: AgentHarness | undefined;
let h: Harness | undefined;
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await a?.dispose();
  a = undefined;
});

type Wire = { role: string; content: string };

describe('the steer key', () => {
  test('Tab on the queue line steers: the call not yet started is deferred, the turn reads it', async () => {
    let release!: () => void;
    let started!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const running = new Promise<void>((r) => (started = r));
    let pings = 0;
    const param = [{ name: 'id', type: 'string' as const, description: 'id' }];
    const gate: Tool = {
      name: 'gate',
      description: 'runs until released',
      kind: 'read',
      params: param,
      run: async () => {
        started();
        await released;
        return { ok: true, data: 'gate done' };
      },
    };
    const ping: Tool = {
      name: 'ping',
      description: 'counts',
      kind: 'read',
      params: param,
      run: () => Promise.resolve({ ok: true, data: `pong ${++pings}` }),
    };
    a = await createHarness({ initialState: 'AWAITING_INPUT', extraTools: [gate, ping] });
    a.server.push(
      { kind: 'stream', content: 'Both.\n[TOOL] gate("1") [/TOOL]\n[TOOL] ping("2") [/TOOL]' },
      { kind: 'stream', content: 'Skipping the ping. [WAIT]' },
    );
    a.agent.start();
    h = await renderApp({ controller: a.agent, columns: 140, rows: 30 });
    h.type('run both');
    h.press(KEY.enter);
    await running;
    h.press('>');
    h.type('no ping');
    // The hint line offers both: Enter queues, Tab steers.
    await h.waitFor((f) => f.includes('› no ping') && f.includes('Tab steer now'));
    h.press(KEY.tab);
    await waitForStore(
      a.agent.store,
      (s) => s.notices.some((n) => n.text.startsWith('Steering:')),
      'the steer taken',
    );
    release();
    await waitForStore(
      a.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !a!.agent.busy,
      'the turn to end',
    );
    expect(pings).toBe(0);
    expect(a.server.requests).toHaveLength(2);
    const wire = a.server.requests[1]!.body.messages as Wire[];
    expect(wire.at(-1)!.role).toBe('user');
    expect(wire.at(-1)!.content).toMatch(/gate done[\s\S]*deferred by the user[\s\S]*no ping$/);
    // The tool log shows the deferred call; nothing was queued.
    await h.waitFor((f) => /↷ ping\("2"\)\s+deferred by the user/.test(f));
    expect(a.agent.store.getState().queued).toEqual([]);
  });
});

describe('the steer row of the key table', () => {
  const ctx = (over: Partial<KeyContext>): KeyContext => ({
    machine: 'THINKING',
    focus: 'input',
    overlay: 'none',
    input: 'text',
    busy: true,
    exitArmed: false,
    approvalArmed: false,
    queueLine: 'new',
    ...over,
  });
  const action = (over: Partial<KeyContext>): string | undefined =>
    resolveKey('\t', { tab: true }, ctx(over))?.action;

  test('Tab steers text on the queue line; it still completes a /command and moves focus elsewhere', () => {
    expect(action({})).toBe('steerMessage');
    expect(action({ queueLine: 'editing' })).toBe('steerMessage');
    expect(action({ input: '/he' })).toBe('complete');
    expect(action({ input: '' })).toBe('focusNext');
    expect(action({ queueLine: 'closed', machine: 'AWAITING_INPUT', busy: false })).toBe(
      'focusNext',
    );
    expect(resolveKey('\r', { return: true }, ctx({}))?.action).toBe('queueMessage');
  });
});
