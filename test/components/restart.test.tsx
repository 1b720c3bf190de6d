import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { createApp, type App as CogitoApp } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';
import { plain, waitFor } from '../helpers/waitForFrame.js';

describe('restart', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  const open: CogitoApp[] = [];

  afterEach(async () => {
    for (const a of open.splice(0)) await a.close();
    await server?.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('shows the previous conversation in the reply pane after a restart, and --paused starts paused', async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-restart-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-restart-home-'));
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    server.push({ kind: 'stream', content: 'The blue folder holds the 2019 tax forms. [WAIT]' });

    const first = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!first.ok) throw new Error(first.message);
    first.app.agent.start();
    first.app.agent.send({ type: 'submit', text: 'what is in the blue folder?' });
    await waitForStore(
      first.app.agent.store,
      (s) => s.messages.length === 2 && s.machine === 'AWAITING_INPUT',
      'reply',
    );
    await first.app.close();

    const second = await createApp({ flags: { home, workspace: ws, paused: true }, env });
    if (!second.ok) throw new Error(second.message);
    open.push(second.app);
    const { agent } = second.app;
    expect(agent.state).toBe('PAUSED');
    const ui = render(
      <App controller={agent} loop={agent} workspace={ws} columns={100} rows={30} />,
    );
    try {
      await waitFor(() => {
        const f = plain(ui.lastFrame());
        return (
          f.includes('what is in the blue folder?') &&
          f.includes('The blue folder holds the 2019 tax forms.')
        );
      }, 'the previous conversation on screen');
      expect(plain(ui.lastFrame()).split('\n')[0]).toContain('Paused');
      // Paused: no request was made by starting up.
      expect(server.requests).toHaveLength(1);
    } finally {
      ui.unmount();
    }
  });
});
