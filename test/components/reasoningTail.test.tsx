/**
 * The reasoning pane streams to its end: once the reply starts, the reasoning's last words
 * (held back while a secret could still be split across deltas) are shown, not frozen
 * mid-word until the reply has finished. The real app against the scripted server.
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
import { plain } from '../helpers/waitForFrame.js';

describe('the reasoning pane while the reply streams', () => {
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

  it('shows the whole reasoning as soon as the reply begins', async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-reason-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-reason-home-'));
    // A long API key: the redactor holds back that many characters (and more) of a stream.
    const env = {
      COGITO_API_KEY: 'sk-a-rather-long-test-key-0123456789abcdef',
      COGITO_BASE_URL: server.url,
      COGITO_MODEL: 'm',
    };
    const reasoning = ['The user asks about ', 'the notes. I will answer ', 'from memory: zebra.'];
    // Three reasoning chunks and two of the reply, then the server holds the stream open.
    server.push({
      kind: 'stream',
      reasoning,
      // The reply's own tail is held back as long (its secrets too): the first two chunks are
      // longer than that, so part of the reply is on screen while the stream is held open.
      content: [
        'The notes say to buy milk, eggs, bread, butter, cheese, apples, pears, rice, tea, ',
        'soap and a few more things for the week that is coming, in this order. ',
        'Done. [WAIT]',
      ],
      stallAfterChunks: 5,
    });
    const r = await createApp({
      flags: { home, workspace: ws },
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
      agent.send({ type: 'submit', text: 'what do my notes say?' });
      const s = await waitForStore(
        agent.store,
        (st) => st.liveReply.includes('say to buy milk'),
        'the reply streaming',
      );
      expect(s.streaming).toBe(true);
      expect(s.liveReasoning).toBe(reasoning.join(''));
      await waitUntil(
        () => plain(ui.lastFrame()).includes('from memory: zebra.'),
        'the end of the reasoning on screen',
        { detail: () => plain(ui.lastFrame()) },
      );
    } finally {
      ui.unmount();
    }
  });
});
