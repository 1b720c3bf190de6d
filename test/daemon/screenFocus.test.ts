/**
 * The `screen` message: a screen attached to the background agent tells it whether its
 * terminal has focus, so the agent sends no desktop notification for what the user is
 * looking at. Hostile or malformed `screen` lines get an error line and change nothing; a
 * connection that closes counts as gone; a client that never says `screen` is no screen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDoor } from '../../src/daemon/agentPort.js';
import { startSocketServer, type SocketServer } from '../../src/daemon/socketServer.js';
import { createAgentStore } from '../../src/store/agentStore.js';
import { rawAgentClient, type RawAgentClient } from '../helpers/rawAgentClient.js';
import { waitUntil } from '../helpers/waitFor.js';

const port: AgentDoor = {
  send: () => ({ ok: true }),
  snapshot: () => createAgentStore().getState(),
  subscribe: () => () => undefined,
  facts: () => ({ state: 'THINKING', tokensToday: 0, sessionId: 's1' }),
};

/** A raw client that has said hello (unless told not to). */
const client = (socketPath: string, hello = true): Promise<RawAgentClient> =>
  rawAgentClient(socketPath, { hello });

describe('the screen focus message', () => {
  let tmp: string;
  let socketPath: string;
  let server: SocketServer;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-focus-'));
    socketPath = path.join(tmp, 'run', 'a.sock');
    server = await startSocketServer({
      socketPath,
      port,
      workspace: '/w',
      started: new Date(),
      onStop: () => undefined,
    });
  });
  afterEach(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('answers malformed screen messages with an error line and counts no screen', async () => {
    const early = await client(socketPath, false);
    // Before the hello it is refused like anything else.
    early.send({ type: 'screen', focused: true });
    await waitUntil(() => early.errors().length === 1, 'the refusal');
    expect(early.errors()).toEqual([expect.stringContaining('say hello first')]);
    const c = await client(socketPath);
    c.send({ type: 'screen' });
    c.send({ type: 'screen', focused: 'yes' });
    c.send({ type: 'screen', focused: 1 });
    c.send({ type: 'screen', focused: null });
    await c.sync();
    expect(c.errors()).toEqual(
      Array(4).fill('a screen message needs "focused": true or false') as string[],
    );
    expect(server.screens()).toBe('none');
    // A client that never says `screen` (status, send) is no screen either.
    await (await client(socketPath)).sync();
    expect(server.screens()).toBe('none');
    early.close();
    c.close();
  });

  it('one focused screen is enough; a screen that disconnects is gone', async () => {
    const a = await client(socketPath);
    const b = await client(socketPath);
    a.send({ type: 'screen', focused: true });
    await a.sync();
    expect(server.screens()).toBe('focused');
    b.send({ type: 'screen', focused: false });
    await b.sync();
    expect(server.screens()).toBe('focused');
    a.close();
    await waitUntil(() => server.screens() === 'unfocused', 'the focused screen to be gone');
    b.send({ type: 'screen', focused: true });
    await b.sync();
    expect(server.screens()).toBe('focused');
    b.send({ type: 'screen', focused: false });
    await b.sync();
    expect(server.screens()).toBe('unfocused');
    expect([...a.errors(), ...b.errors()]).toEqual([]);
    b.close();
    await waitUntil(() => server.screens() === 'none', 'the last screen to be gone');
  });
});
