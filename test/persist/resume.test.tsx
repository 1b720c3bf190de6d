/**
 * A resumed session shows what it holds: its tool calls in the tool log (from the stored
 * tool messages) and its real token count on the status bar; `/new` clears both. The real
 * app (createApp) against the scripted server, drawn with ink-testing-library.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

describe('resume and /new show the right tool log and token counts', () => {
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

  it('resume: tool log filled, tokens of the session; /new: both cleared', async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-resume-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-resume-home-'));
    await writeFile(path.join(ws, 'notes.md'), 'buy milk');
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    server.push(
      {
        kind: 'stream',
        content: 'Reading.\n[TOOL] read("notes.md") [/TOOL]',
        usage: { prompt_tokens: 1200, completion_tokens: 34 },
      },
      {
        kind: 'stream',
        content: 'It says to buy milk. [WAIT]',
        usage: { prompt_tokens: 1300, completion_tokens: 20 },
      },
    );
    const first = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!first.ok) throw new Error(first.message);
    const id = first.app.currentSessionId();
    first.app.agent.start();
    first.app.agent.send({ type: 'submit', text: 'what do my notes say?' });
    await waitForStore(
      first.app.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.some((m) => m.content.includes('milk')),
      'the answer',
    );
    await first.app.agent.idle();
    await first.app.close();

    const second = await createApp({
      flags: { home, workspace: ws, session: id, paused: true },
      env,
    });
    if (!second.ok) throw new Error(second.message);
    open.push(second.app);
    const { agent } = second.app;
    expect(second.app.currentSessionId()).toBe(id);
    const ui = render(
      <App controller={agent} loop={agent} workspace={ws} columns={170} rows={30} />,
    );
    try {
      // 1200 + 34 + 1300 + 20 = 2554 tokens: "Session 2.6k", and the call in the tool log.
      const resumed = await waitUntil(
        () => {
          const f = plain(ui.lastFrame());
          return f.includes('buy milk') && f.includes('Session 2.6k') ? f : undefined;
        },
        'the resumed session with its tool log and tokens',
        { detail: () => plain(ui.lastFrame()) },
      );
      expect(toolPane(resumed)).toContain('read("notes.md")');
      expect(agent.store.getState().toolLog.map((e) => [e.call, e.status])).toEqual([
        ['read("notes.md")', 'ok'],
      ]);

      agent.send({ type: 'submit', text: '/new' });
      const fresh = await waitUntil(
        () => {
          const f = plain(ui.lastFrame());
          return f.includes('Session 0') && !f.includes('It says to buy milk') ? f : undefined;
        },
        'a fresh session',
        { detail: () => plain(ui.lastFrame()) },
      );
      expect(toolPane(fresh)).not.toContain('read("notes.md")');
      expect(agent.store.getState().toolLog).toEqual([]);
      expect(agent.store.getState().sessionTokens).toBe(0);
    } finally {
      ui.unmount();
    }
  });
});

/** The frame's rows from the tool pane's title down (the tool log is the lower right pane). */
function toolPane(frame: string): string {
  const lines = frame.split('\n');
  const at = lines.findIndex((l) => /tools|Tools|tool log/i.test(l));
  return at < 0 ? frame : lines.slice(at).join('\n');
}
