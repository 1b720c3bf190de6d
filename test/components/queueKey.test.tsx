/**
 * The queue key through the screen (issue #28.2): the rendered app drives a real agent
 * against the scripted server on 127.0.0.1. `>` while a reply streams opens the queue line
 * without stopping the reply; Enter queues; the queued message shows above the input line;
 * ↑ picks a queued message to edit, Ctrl+X drops it, and what is delivered follows.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { resolveKey, type KeyContext, type KeyPress } from '../../components/keys/bindings.js';
import { createHarness, type Harness as AgentHarness } from '../helpers/agentHarness.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

let a: AgentHarness | undefined;
let h: Harness | undefined;
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await a?.dispose();
  a = undefined;
});

type Wire = { role: string; content: string };
const userTexts = (n: number): string =>
  (a!.server.requests[n]!.body.messages as Wire[])
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');

describe('the queue key', () => {
  test('> while a reply streams queues a message without stopping it; it is answered next', async () => {
    a = await createHarness({ initialState: 'AWAITING_INPUT' });
    a.server.push(
      {
        kind: 'stream',
        content: ['One, ', 'two, ', 'three, ', 'four, ', 'five. ', '[WAIT]'],
        chunkDelayMs: 80,
      },
      { kind: 'stream', content: 'About your aside: fine. [WAIT]' },
    );
    a.agent.start();
    h = await renderApp({ controller: a.agent });
    h.type('count');
    h.press(KEY.enter);
    await waitForStore(a.agent.store, (s) => s.liveReply !== '', 'the reply streaming');
    expect(await h.waitFor((f) => f.includes('> queue a message'))).toBeTruthy();
    h.press('>');
    await h.waitFor((f) => f.includes('Queue a message (Enter: answered when'));
    h.type('an aside');
    await h.waitFor((f) => f.includes('› an aside'));
    h.press(KEY.enter);
    const shown = await h.waitFor((f) => f.includes('queued: 1 an aside'));
    expect(shown).not.toContain('› an aside');
    await waitForStore(a.agent.store, (s) => s.messages.length === 4 && !a!.agent.busy, 'both');
    // The stream in flight was never closed by the client, and nothing was interrupted.
    expect(a.server.requests[0]!.completed).toBe(true);
    expect(a.server.requests[0]!.closedAt).toBeUndefined();
    expect(a.agent.store.getState().messages[1]!.content).toContain('five.');
    const wire = a.server.requests[1]!.body.messages as Wire[];
    expect(wire.at(-1)).toMatchObject({ role: 'user', content: 'an aside' });
    await h.waitFor((f) => !f.includes('queued:'));
  });

  test('↑ picks a queued message to edit, Ctrl+X drops one: what is delivered follows', async () => {
    a = await createHarness({ initialState: 'AWAITING_INPUT' });
    a.server.push(
      { kind: 'stream', content: 'Thinking it over', stallAfterChunks: 1 },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    a.agent.start();
    h = await renderApp({ controller: a.agent });
    h.type('go');
    h.press(KEY.enter);
    await waitForStore(a.agent.store, (s) => s.liveReply !== '', 'the reply streaming');
    for (const text of ['first note', 'second note']) {
      h.press('>');
      await h.waitFor((f) => f.includes('Queue a message'));
      h.type(text);
      h.press(KEY.enter);
      await waitForStore(a.agent.store, (s) => s.queued.some((q) => q.text === text), text);
    }
    // ↑ on the queue line picks the last queued message; its text is on the line to edit.
    h.press('>');
    await h.waitFor((f) => f.includes('Queue a message'));
    h.press(KEY.up);
    await h.waitFor((f) => f.includes('Edit queued message 2') && f.includes('› second note'));
    h.press(KEY.ctrl('w'));
    h.type('NOTE');
    h.press(KEY.enter);
    await waitForStore(a.agent.store, (s) => s.queued[1]?.text === 'second NOTE', 'the edit');
    // ↑ ↑ picks the first one; Ctrl+X drops it.
    h.press('>');
    await h.waitFor((f) => f.includes('Queue a message'));
    h.press(KEY.up);
    await h.waitFor((f) => f.includes('› second NOTE'));
    h.press(KEY.up);
    await h.waitFor((f) => f.includes('Edit queued message 1') && f.includes('› first note'));
    h.press(KEY.ctrl('x'));
    await waitForStore(a.agent.store, (s) => s.queued.length === 1, 'the drop');
    await h.waitFor((f) => f.includes('queued: 1 second NOTE'));
    expect(a.server.requests).toHaveLength(1);
    expect(a.server.requests[0]!.closedAt).toBeUndefined();

    // Esc on a closed queue line still interrupts (the default stays); the queue follows.
    h.press(KEY.esc);
    await a.server.waitForRequest(1);
    await waitUntil(() => !a!.agent.busy, 'the answer');
    expect(userTexts(1)).toContain('second NOTE');
    expect(userTexts(1)).not.toMatch(/first note|second note/);
  });

  test('Esc closes the queue line without stopping the agent; typing there never interrupts', async () => {
    a = await createHarness({ initialState: 'AWAITING_INPUT' });
    a.server.push({ kind: 'stream', content: 'Still going', stallAfterChunks: 1 });
    a.agent.start();
    h = await renderApp({ controller: a.agent });
    h.type('go');
    h.press(KEY.enter);
    await waitForStore(a.agent.store, (s) => s.liveReply !== '', 'the reply streaming');
    h.press('>');
    h.type('never mind');
    await h.waitFor((f) => f.includes('› never mind'));
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('Press any key to interrupt'));
    expect(a.agent.state).toBe('THINKING');
    expect(a.agent.store.getState().queued).toEqual([]);
    expect(a.server.requests[0]!.closedAt).toBeUndefined();
  });
});

describe('the queue rows of the key table', () => {
  const ctx = (over: Partial<KeyContext>): KeyContext => ({
    machine: 'THINKING',
    focus: 'input',
    overlay: 'none',
    input: '',
    busy: true,
    exitArmed: false,
    approvalArmed: false,
    queueLine: 'closed',
    ...over,
  });
  const action = (input: string, key: KeyPress, over: Partial<KeyContext>): string | undefined =>
    resolveKey(input, key, ctx(over))?.action;

  test('any key still interrupts by default; > on an empty line opens the queue line instead', () => {
    expect(action('x', {}, {})).toBe('interruptAndType');
    expect(action('>', {}, {})).toBe('openQueue');
    expect(action('>', {}, { machine: 'PAUSED', busy: true })).toBe('openQueue');
    // Listening, > is just text (Enter answers at once anyway).
    expect(action('>', {}, { machine: 'AWAITING_INPUT', busy: false })).toBe('type');
  });

  test('on the queue line: text is typed, Enter queues, Esc closes, even while a call waits', () => {
    for (const machine of ['THINKING', 'AWAITING_APPROVAL', 'PAUSED'] as const) {
      const open = { machine, queueLine: 'new' as const, input: 'later' };
      expect(action('x', {}, open)).toBe('type');
      expect(action('\r', { return: true }, open)).toBe('queueMessage');
      expect(action('', { escape: true }, open)).toBe('closeQueue');
      expect(action('', { upArrow: true }, open)).toBe('queuePrev');
    }
    expect(action('x', { ctrl: true }, { queueLine: 'new' })).not.toBe('dropQueued');
    expect(action('x', { ctrl: true }, { queueLine: 'editing' })).toBe('dropQueued');
  });
});
