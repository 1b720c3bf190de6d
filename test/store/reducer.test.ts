import { describe, expect, it } from 'vitest';
import type { ToolLogEntry } from '../../src/api/events.js';
import { makeMessage } from '../../src/core/messages.js';
import { createAgentStore } from '../../src/store/agentStore.js';
import { MAX_NOTICES, MAX_TOOL_LOG, MAX_TRACES } from '../../src/store/reducer.js';
import { replyUpdates } from '../helpers/replyParts.js';

const entry = (id: number, status: ToolLogEntry['status'] = 'running'): ToolLogEntry => ({
  callId: `c${id}`,
  turnId: 1,
  name: 'ls',
  args: ['.'],
  call: 'ls(".")',
  status,
  startedAt: 0,
});

describe('the store reduces agent events', () => {
  it('machine state and the pause reason (written by dispatch)', () => {
    const store = createAgentStore({ machine: 'THINKING' });
    const { dispatch } = store.getState();
    dispatch('AUTO_PAUSE', 'cycle limit');
    expect(store.getState()).toMatchObject({ machine: 'PAUSED', pauseReason: 'cycle limit' });
    dispatch('RESUME');
    expect(store.getState()).toMatchObject({ machine: 'THINKING', pauseReason: undefined });
  });

  it('a retry drops the broken try from the screen and says so; a turn can give its cycle back', () => {
    const store = createAgentStore();
    const { apply } = store.getState();
    apply({ type: 'turn_start', turnId: 1, trigger: 'timer', cycle: 3 });
    apply({ type: 'request_start', turnId: 1, promptTokens: 900 });
    const update = replyUpdates();
    apply({ type: 'message_start', turnId: 1 });
    apply(update('Half a rep'));
    expect(store.getState().liveReply).toBe('Half a rep');
    apply({
      type: 'retrying',
      turnId: 1,
      attempt: 2,
      delayMs: 2000,
      error: { kind: 'network', message: 'dropped' },
      text: 'dropped; retrying in 2s (try 2 of 5)',
    });
    const s = store.getState();
    expect(s.liveReply).toBe('');
    expect(s.streaming).toBe(false);
    expect(s.notices.at(-1)).toMatchObject({
      level: 'warn',
      text: 'dropped; retrying in 2s (try 2 of 5)',
    });
    // The back-off is shown as such until the retry's request goes out.
    expect(s.retryAt).toBeGreaterThanOrEqual(Date.now() + 1000);
    apply({ type: 'request_start', turnId: 1, promptTokens: 900 });
    expect(store.getState().retryAt).toBeUndefined();
    const trace = { turnId: 1, trigger: 'timer' as const, startedAt: 0, durationMs: 1 };
    const end = { ...trace, phases: [], steps: 1, outcome: 'error' as const };
    apply({ type: 'turn_end', turnId: 1, outcome: 'error', wait: false, trace: end, cycle: 2 });
    expect(store.getState().cycle).toBe(2);
  });

  it('streams reasoning and reply, then clears them when the reply is saved', () => {
    const store = createAgentStore();
    const { apply } = store.getState();
    apply({ type: 'turn_start', turnId: 1, trigger: 'timer', cycle: 2 });
    apply({ type: 'request_start', turnId: 1, promptTokens: 900 });
    apply({ type: 'reasoning_delta', turnId: 1, text: 'hm' });
    const update = replyUpdates();
    apply({ type: 'message_start', turnId: 1 });
    apply(update('Hel'));
    apply(update('lo'));
    // The parts come with the events, joined, not read from the text.
    apply(update(' [TOOL] ls(".") [/TOOL]\n\nDone'));
    expect(
      store.getState().liveParts.items.map((p) => (p.type === 'text' ? p.text : p.name)),
    ).toEqual(['Hello ', 'ls', '\n\nDone']);
    const ended = { items: [{ type: 'text' as const, text: 'Hello, ended' }], wait: false };
    apply({ type: 'message_end', turnId: 1, parts: ended });
    expect(store.getState()).toMatchObject({ liveParts: ended, liveEnded: true });
    expect(store.getState()).toMatchObject({
      streaming: true,
      liveReply: 'Hello [TOOL] ls(".") [/TOOL]\n\nDone',
      liveReasoning: 'hm',
      cycle: 2,
      contextTokens: 900,
    });
    apply({
      type: 'message_added',
      message: makeMessage('assistant', 'Hello', { reasoning: 'hm' }),
    });
    expect(store.getState()).toMatchObject({
      streaming: false,
      liveReply: '',
      liveParts: { items: [], wait: false },
      liveEnded: false,
      liveReasoning: '',
      lastReasoning: 'hm',
    });
    apply({
      type: 'usage',
      turnId: 1,
      usage: { promptTokens: 1000, completionTokens: 20, totalTokens: 1020 },
      estimated: false,
    });
    expect(store.getState()).toMatchObject({ contextTokens: 1000, sessionTokens: 1020 });
  });

  it('keeps bounded logs: tools (updated in place), traces and notices', () => {
    const store = createAgentStore();
    const { apply } = store.getState();
    apply({ type: 'tool_start', entry: entry(1) });
    apply({ type: 'tool_end', entry: entry(1, 'ok') });
    expect(store.getState().toolLog).toEqual([entry(1, 'ok')]);
    for (let i = 2; i <= MAX_TOOL_LOG + 10; i++) apply({ type: 'tool_start', entry: entry(i) });
    expect(store.getState().toolLog).toHaveLength(MAX_TOOL_LOG);
    expect(store.getState().toolLog.at(-1)!.callId).toBe(`c${MAX_TOOL_LOG + 10}`);
    for (let i = 0; i < MAX_NOTICES + 5; i++)
      apply({ type: 'notice', level: 'info', text: `n${i}` });
    expect(store.getState().notices).toHaveLength(MAX_NOTICES);
    const trace = {
      turnId: 1,
      trigger: 'user' as const,
      startedAt: 0,
      durationMs: 1,
      phases: [],
      steps: 1,
      outcome: 'ok' as const,
    };
    for (let i = 0; i < MAX_TRACES + 5; i++)
      apply({ type: 'turn_end', turnId: i, outcome: 'ok', wait: false, trace });
    expect(store.getState().traces).toHaveLength(MAX_TRACES);
  });

  it('an approval request shows until answered or the machine moves on', () => {
    const store = createAgentStore({ machine: 'AWAITING_APPROVAL' });
    const { apply, dispatch } = store.getState();
    const request = {
      id: 1,
      tool: 'delete',
      kind: 'destructive' as const,
      call: 'delete("x")',
      reason: 'asks',
    };
    apply({ type: 'approval_request', request });
    expect(store.getState().approval).toEqual(request);
    dispatch('INTERRUPT');
    expect(store.getState().approval).toBeUndefined();
  });

  it('a user message resets the cycle count; a new session replaces the messages', () => {
    const store = createAgentStore();
    const { apply } = store.getState();
    apply({ type: 'turn_start', turnId: 1, trigger: 'timer', cycle: 5 });
    apply({ type: 'message_added', message: makeMessage('user', 'hi') });
    expect(store.getState().cycle).toBe(0);
    apply({ type: 'messages_replaced', messages: [] });
    expect(store.getState().messages).toEqual([]);
  });
});
