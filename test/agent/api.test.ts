/**
 * The Agent API as a client sees it: commands in (`send`), events out (`subscribe`), and a
 * snapshot for a screen that attaches late. Everything runs against the scripted
 * OpenAI-compatible server on 127.0.0.1 and real files in temp folders.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/api/commands.js';
import type { AgentEvent } from '../../src/api/events.js';
import { createMirrorStore, snapshotOf, type AgentSnapshot } from '../../src/store/agentStore.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

const lastUserText = (h: Harness, n: number): string => {
  const messages = h.server.requests[n]!.body.messages as { role: string; content: string }[];
  return String(messages.filter((m) => m.role === 'user').at(-1)?.content);
};

/** Notices are stamped with the time a store applied them: compare all but the stamp. */
const comparable = (s: AgentSnapshot): unknown => ({
  ...s,
  notices: s.notices.map(({ at: _at, ...n }) => n),
});

describe('the Agent API', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('submit answers; interrupt stops the reply in flight, and says so when nothing is', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push({ kind: 'stream', content: 'Hello there. [WAIT]' });
    h.agent.start();
    expect(h.agent.send({ type: 'submit', text: 'hi' })).toEqual({ ok: true });
    await waitForStore(
      h.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !h.agent.busy,
      'the answer',
    );
    expect(h.agent.store.getState().messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    h.server.push({ kind: 'stream', content: 'a long answer that stalls', stallAfterChunks: 2 });
    h.agent.send({ type: 'submit', text: 'go on' });
    await h.server.waitForRequest(1);
    expect(h.agent.send({ type: 'interrupt' })).toEqual({ ok: true });
    expect(h.agent.state).toBe('AWAITING_INPUT');
    const again = h.agent.send({ type: 'interrupt' });
    expect(again.ok).toBe(false);
    expect(again.ok === false && again.problem).toMatch(/nothing is in flight/);
  });

  it('queue: the turn in flight goes on, and the next turn answers the queued message', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push(
      {
        kind: 'stream',
        content: ['Working ', 'on ', 'the ', 'first. ', '[WAIT]'],
        chunkDelayMs: 30,
      },
      { kind: 'stream', content: 'About the second: yes. [WAIT]' },
    );
    const moves: string[] = [];
    h.agent.subscribe((e) => e.type === 'state_changed' && moves.push(e.event));
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'first question' });
    await h.server.waitForRequest(0);
    expect(h.agent.send({ type: 'queue', text: 'second question' })).toEqual({ ok: true });
    await h.server.waitForRequest(1);
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 4 && !h.agent.busy,
      'both answers',
    );
    // Not interrupted: the first reply is whole, and the queued words came after it.
    expect(moves).not.toContain('INTERRUPT');
    const texts = h.agent.store.getState().messages.map((m) => m.content);
    expect(texts[1]).toContain('Working on the first.');
    expect(texts[2]).toBe('second question');
    expect(lastUserText(h, 1)).toContain('second question');
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(h.agent.send({ type: 'queue', text: '   ' }).ok).toBe(false);
  });

  it('pause, resume and toggle_pause move the machine; one that does not apply says so', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.setDefault({ kind: 'stream', content: 'Looking. [WAIT]' });
    h.agent.start();
    expect(h.agent.send({ type: 'pause', reason: 'lunch' })).toEqual({ ok: true });
    expect(h.agent.state).toBe('PAUSED');
    expect(h.agent.send({ type: 'pause' }).ok).toBe(false);
    h.agent.send({ type: 'resume' });
    expect(h.agent.state).toBe('THINKING');
    h.agent.send({ type: 'toggle_pause' });
    expect(h.agent.state).toBe('PAUSED');
    h.agent.send({ type: 'toggle_pause' });
    expect(h.agent.state).toBe('THINKING');
    expect(h.agent.send({ type: 'resume' }).ok).toBe(false);
  });

  it('answer_approval answers the prompt on screen', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    await writeFile(path.join(h.workspaceDir, 'old.txt'), 'old');
    h.server.push(
      { kind: 'stream', content: '[TOOL] delete("old.txt") [/TOOL]' },
      { kind: 'stream', content: 'Gone. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'tidy up' });
    await waitForStore(h.agent.store, (s) => s.approval !== undefined, 'the approval request');
    // An answer for another card (one a client showed, since replaced) answers nothing.
    const id = h.agent.store.getState().approval!.id;
    const stale = h.agent.send({ type: 'answer_approval', answer: 'yes', id: id + 1 });
    expect(stale).toMatchObject({ ok: false, problem: expect.stringContaining('not the one') });
    expect(h.agent.state).toBe('AWAITING_APPROVAL');
    expect(h.agent.send({ type: 'answer_approval', answer: 'no', id }).ok).toBe(true);
    await h.server.waitForRequest(1);
    expect(JSON.stringify(h.server.requests[1]!.body.messages.at(-1))).toMatch(/denied|declined/i);
  });

  it('command runs a slash command (slash optional); new_session starts an empty one', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    h.server.push({ kind: 'stream', content: 'Hi. [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 2 && !h.agent.busy,
      'the answer',
    );
    const notices = (): number => h.agent.store.getState().notices.length;
    const before = notices();
    expect(h.agent.send({ type: 'command', text: 'help' })).toEqual({ ok: true });
    await waitUntil(() => notices() > before && !h.agent.busy, 'the help text');
    expect(h.agent.store.getState().notices.at(-1)!.text).toContain('/pause');
    const bad = h.agent.send({ type: 'command', text: '//not a command' });
    expect(bad.ok === false && bad.problem).toMatch(/not a slash command/);

    const oldId = h.session.id;
    const loaded: AgentEvent[] = [];
    h.agent.subscribe((e) => e.type === 'history_loaded' && loaded.push(e));
    h.agent.send({ type: 'new_session' });
    await waitUntil(() => loaded.length === 1, 'the new session');
    expect(h.session.id).not.toBe(oldId);
    expect(h.agent.store.getState().messages).toEqual([]);
  });

  it('notice shows the host’s text among the agent’s notices', async () => {
    h = await createHarness();
    h.agent.send({ type: 'notice', level: 'warn', text: 'mouse reporting off' });
    expect(h.agent.store.getState().notices.at(-1)).toMatchObject({
      level: 'warn',
      text: 'mouse reporting off',
    });
  });

  it('a command that came as data is checked: each problem is named with its fix', () => {
    expect(parseCommand({ type: 'submit', text: 'hi' })).toEqual({ type: 'submit', text: 'hi' });
    expect(parseCommand('submit')).toMatchObject({ problem: expect.stringMatching(/JSON object/) });
    expect(parseCommand({ type: 'exit' })).toMatchObject({
      problem: expect.stringMatching(/unknown command type "exit": use one of submit, queue/),
    });
    expect(parseCommand({ type: 'queue' })).toMatchObject({
      problem: expect.stringMatching(/needs a "text" string/),
    });
    expect(parseCommand({ type: 'answer_approval', answer: 'yes', id: 'x' })).toMatchObject({
      problem: expect.stringContaining('"id"'),
    });
    expect(parseCommand({ type: 'answer_approval', answer: 'maybe' })).toMatchObject({
      problem: expect.stringMatching(/one of yes, no, always/),
    });
  });

  it('every event of a real session survives JSON whole (a socket can carry it)', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    await writeFile(path.join(h.workspaceDir, 'notes.md'), '# notes\n');
    h.server.push(
      { kind: 'stream', reasoning: 'look first', content: 'Let me look.\n[TOOL] ls(".") [/TOOL]' },
      { kind: 'stream', content: 'There is notes.md. [WAIT]' },
    );
    const events: AgentEvent[] = [];
    h.agent.subscribe((e) => events.push(e));
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'what is here?' });
    await waitUntil(() => events.some((e) => e.type === 'cycle_recorded'), 'the ledger record');
    h.agent.send({ type: 'pause', reason: 'done' });
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      'state_changed',
      'turn_start',
      'message_start',
      'message_update',
      'message_end',
      'tool_end',
      'turn_end',
      'cycle_recorded',
    ])
      expect(types).toContain(t);
    for (const e of events) expect(JSON.parse(JSON.stringify(e))).toStrictEqual(e);
  });

  it('a snapshot taken mid-session, then the events after it, equals the agent’s own store', async () => {
    h = await createHarness({ initialState: 'AWAITING_INPUT' });
    await writeFile(path.join(h.workspaceDir, 'old.txt'), 'old');
    h.server.push(
      { kind: 'stream', content: 'First answer. [WAIT]' },
      { kind: 'stream', content: ['Cleaning', ' up.\n', '[TOOL] delete("old.txt") [/TOOL]'] },
      { kind: 'stream', content: 'Done. [WAIT]' },
    );
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'hello' });
    await waitForStore(
      h.agent.store,
      (s) => s.messages.length === 2 && !h.agent.busy,
      'the answer',
    );
    h.agent.send({ type: 'submit', text: 'tidy up' });
    // Mid-turn: the reply is streaming or the approval is on screen.
    await waitForStore(
      h.agent.store,
      (s) => s.liveReply !== '' || s.approval !== undefined,
      'mid-turn',
    );
    const snapshot = h.agent.snapshot();
    const mirror = createMirrorStore(JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot);
    h.agent.subscribe((e) => mirror.getState().follow(JSON.parse(JSON.stringify(e)) as AgentEvent));
    await waitForStore(h.agent.store, (s) => s.approval !== undefined, 'the approval');
    expect(comparable(snapshotOf(mirror.getState()))).toEqual(comparable(h.agent.snapshot()));
    h.agent.send({ type: 'answer_approval', answer: 'yes' });
    h.agent.send({ type: 'notice', text: 'a host note' });
    await waitForStore(h.agent.store, (s) => s.messages.length >= 4 && !h.agent.busy, 'the end');
    expect(comparable(snapshotOf(mirror.getState()))).toEqual(comparable(h.agent.snapshot()));
    expect(mirror.getState().machine).toBe('AWAITING_INPUT');
  });

  it('nothing outside the agent can emit on its bus, or read a quit off it', () => {
    const check = (agent: Harness['agent']): void => {
      // @ts-expect-error `emit` is the agent's own: not on its public type.
      agent.emit({ type: 'notice', level: 'info', text: 'spoofed' });
      // @ts-expect-error quitting is the host's port, not an event.
      const quit: AgentEvent = { type: 'exit_requested' };
      void quit;
    };
    expect(typeof check).toBe('function');
  });
});
