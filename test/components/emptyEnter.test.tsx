/**
 * An empty Enter at the prompt lets it think again, as the README says: the agent looks
 * again at once, even when its last cycle found nothing new and nothing has changed since
 * (when a timer look would be skipped). The real app, keys typed into the screen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { createApp, type App as CogitoApp } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

describe('an empty Enter', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let app: CogitoApp | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
    await server?.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('asks the agent to look again now, after a cycle that found nothing new', async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-enter-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-enter-home-'));
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    server.push(
      { kind: 'stream', content: 'Hello.' },
      // An autonomous cycle with nothing new, which then waits for the user.
      { kind: 'stream', content: 'Nothing new here. [WAIT]' },
      { kind: 'stream', content: 'Looked again: still nothing. [WAIT]' },
    );
    const r = await createApp({
      flags: { home, workspace: ws, thinkIntervalMs: 0 },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!r.ok) throw new Error(r.message);
    app = r.app;
    const { agent } = app;
    const ui = render(
      <App controller={agent} loop={agent} workspace={ws} columns={100} rows={30} />,
    );
    try {
      agent.start();
      await agent.watching();
      agent.send({ type: 'submit', text: 'hi' });
      await waitForStore(
        agent.store,
        (s) =>
          s.machine === 'AWAITING_INPUT' &&
          s.messages.some((m) => m.content.includes('Nothing new')),
        'the cycle that found nothing new',
      );
      await agent.idle();
      expect(server.requests).toHaveLength(2);

      ui.stdin.write('\r');
      await waitUntil(() => server.requests.length === 3 || undefined, 'a new request');
      const last = JSON.stringify(server.requests[2]!.body.messages.at(-1));
      expect(last).not.toContain('The user is not here');
      await waitForStore(
        agent.store,
        (s) => s.messages.some((m) => m.content.includes('Looked again')),
        'the answer of the new look',
      );
    } finally {
      ui.unmount();
    }
  });
});
