/**
 * A screen attaching over the real socket: `attach` hands it the agent's snapshot and every
 * event after it with none lost between (an event the agent emits right after the snapshot
 * is taken lands in the mirror), commands go back as plain data, detaching leaves the agent
 * alone, `stop` asks it to quit, and a socket that dies ends the attachment with the reason.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCommand, AgentDoor, DoorEvent } from '../../src/daemon/agentPort.js';
import { attachTo } from '../../src/daemon/attach.js';
import type { RegistryEntry } from '../../src/daemon/registry.js';
import { startSocketServer, type SocketServer } from '../../src/daemon/socketServer.js';
import { createAgentStore, snapshotOf } from '../../src/store/agentStore.js';
import { waitUntil } from '../helpers/waitFor.js';

/** A stand-in agent with a real store: every event it emits is applied to that store too. */
function storePort() {
  const store = createAgentStore();
  const listeners = new Set<(e: DoorEvent) => void>();
  const commands: AgentCommand[] = [];
  const emit = (e: DoorEvent): void => {
    store.getState().apply(e);
    listeners.forEach((l) => l(e));
  };
  let afterSnapshot: DoorEvent | undefined;
  const port: AgentDoor = {
    send: (c) => {
      commands.push(c);
      return { ok: true };
    },
    snapshot: () => {
      // The agent goes on at once: this event must reach the screen after the snapshot.
      const next = afterSnapshot;
      if (next) queueMicrotask(() => emit(next));
      return snapshotOf(store.getState());
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    facts: () => ({ state: 'THINKING', tokensToday: 0, sessionId: 's1' }),
  };
  return {
    port,
    store,
    commands,
    emit,
    emitAfterSnapshot: (e: DoorEvent) => (afterSnapshot = e),
  };
}

describe('a screen attached over the socket', () => {
  let tmp: string;
  let entry: RegistryEntry;
  let server: SocketServer | undefined;
  let stops = 0;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-attach-'));
    const socket = path.join(tmp, 'run', 'a.sock');
    entry = {
      workspace: '/w',
      pid: process.pid,
      socket,
      started: new Date().toISOString(),
      log: '',
    };
    stops = 0;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(tmp, { recursive: true, force: true });
  });

  const start = async (port: AgentDoor) =>
    (server = await startSocketServer({
      socketPath: entry.socket,
      port,
      workspace: '/w',
      started: new Date(),
      onStop: () => void (stops += 1),
    }));

  it('mirrors the snapshot and every later event, with none lost between', async () => {
    const agent = storePort();
    await start(agent.port);
    agent.emit({ type: 'notice', level: 'info', text: 'while nobody watched' });
    agent.emitAfterSnapshot({ type: 'notice', level: 'info', text: 'right after the snapshot' });
    const a = await attachTo(entry);
    await waitUntil(() => a.store.getState().notices.length === 2, 'the event after the snapshot');
    agent.emit({ type: 'notice', level: 'warn', text: 'live' });
    await waitUntil(() => a.store.getState().notices.length === 3, 'the live event');
    expect(a.store.getState().notices.map((n) => n.text)).toEqual(
      agent.store.getState().notices.map((n) => n.text),
    );
    a.detach();
    expect(await a.ended).toEqual({ left: true });
  });

  it('sends commands as plain data; detach leaves the agent, stop asks it to quit', async () => {
    const agent = storePort();
    await start(agent.port);
    const a = await attachTo(entry);
    const b = await attachTo(entry);
    a.send({ type: 'submit', text: 'hello from a screen' });
    b.send({ type: 'interrupt' });
    await waitUntil(() => agent.commands.length === 2, 'both screens’ commands');
    expect(agent.commands).toContainEqual({ type: 'submit', text: 'hello from a screen' });
    expect(agent.commands).toContainEqual({ type: 'interrupt' });
    a.detach();
    expect(await a.ended).toEqual({ left: true });
    expect(stops).toBe(0);
    // The other screen still follows the agent.
    agent.emit({ type: 'notice', level: 'info', text: 'still here' });
    await waitUntil(() => b.store.getState().notices.length === 1, 'the second screen’s event');
    await b.stop();
    expect(stops).toBe(1);
  });

  it('tells the agent its focus, so a focused screen silences the desktop notifications', async () => {
    const agent = storePort();
    const s = await start(agent.port);
    const a = await attachTo(entry);
    expect(s.screens()).toBe('none');
    a.focus(true);
    await waitUntil(() => s.screens() === 'focused', 'the focus report');
    a.focus(false);
    await waitUntil(() => s.screens() === 'unfocused', 'the focus-out report');
    // The agent's events reach the screen's own listeners (its terminal notifications).
    const seen: string[] = [];
    const stop = a.subscribe((e) => seen.push(e.type));
    agent.emit({ type: 'notice', level: 'info', text: 'for the notifier' });
    await waitUntil(() => seen.includes('notice'), 'the event at the listener');
    stop();
    a.detach();
    await waitUntil(() => s.screens() === 'none', 'the screen gone with its connection');
  });

  it('ends with the reason when the agent goes away', async () => {
    await start(storePort().port);
    const a = await attachTo(entry);
    await server?.close();
    server = undefined;
    const ended = await a.ended;
    expect(ended.left).toBe(false);
    expect(ended).toMatchObject({ why: expect.stringContaining('closed the connection') });
  });

  it('says what is wrong when nothing answers on the socket', async () => {
    await expect(attachTo(entry)).rejects.toThrow(/cannot reach .*a\.sock/);
  });
});
