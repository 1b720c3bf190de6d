/**
 * Restart equals live (issue #33, point 4): the tool log a restarted app rebuilds from the
 * session equals the one the live screen showed, field by field: status (a denied call is
 * not a failed one), arguments, the one-line result and the duration. The real app
 * (createApp) against the scripted server, a real home and workspace; the second app opens
 * the same session from the same home.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolLogEntry } from '../../src/api/events.js';
import { createApp, type App as CogitoApp } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

/** What the tool log's line and detail view show of an entry. */
const shown = (e: ToolLogEntry): Partial<ToolLogEntry> => ({
  callId: e.callId,
  name: e.name,
  call: e.call,
  status: e.status,
  args: e.args,
  summary: e.summary,
  durationMs: e.durationMs,
  errorKind: e.errorKind,
  undo: e.undo,
});

describe('a restarted session shows the tool log the live screen showed', () => {
  let server: ScriptedServer | undefined;
  const dirs: string[] = [];
  const open: CogitoApp[] = [];

  afterEach(async () => {
    for (const a of open.splice(0)) await a.close();
    await server?.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('an ok, a denied and a failed call: status, arguments, summary, duration', async () => {
    server = await startScriptedServer();
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-restore-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-restore-home-'));
    dirs.push(ws, home);
    await writeFile(path.join(ws, 'notes.md'), 'buy milk\nand bread\n');
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' };
    server.push(
      {
        kind: 'stream',
        content:
          'Looking.\n[TOOL] read("notes.md") [/TOOL]\n[TOOL] delete("notes.md") [/TOOL]\n' +
          '[TOOL] read("missing.md") [/TOOL]',
      },
      { kind: 'stream', content: 'Your notes say to buy milk. [WAIT]' },
    );
    const first = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!first.ok) throw new Error(first.message);
    open.push(first.app);
    const id = first.app.currentSessionId();
    const live = first.app.agent;
    live.start();
    live.send({ type: 'submit', text: 'what do my notes say?' });
    // The delete asks; the user says no.
    const asked = await waitForStore(live.store, (s) => s.approval !== undefined, 'the approval');
    live.send({ type: 'answer_approval', answer: 'no', id: asked.approval!.id });
    await waitForStore(
      live.store,
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.some((m) => m.content.includes('milk.')),
      'the answer',
    );
    await live.idle();
    const before = live.store.getState().toolLog.map(shown);
    // The live log is what the test compares against: the three kinds, each with its line.
    expect(before.map((e) => [e.call, e.status])).toEqual([
      ['read("notes.md")', 'ok'],
      ['delete("notes.md")', 'denied'],
      ['read("missing.md")', 'error'],
    ]);
    expect(before.map((e) => e.args)).toEqual([['notes.md'], ['notes.md'], ['missing.md']]);
    for (const e of before) {
      expect(e.summary, e.call).toBeTruthy();
      expect(e.durationMs, e.call).toEqual(expect.any(Number));
    }
    await first.app.close();
    open.splice(open.indexOf(first.app), 1);

    const second = await createApp({
      flags: { home, workspace: ws, session: id, paused: true },
      env,
    });
    if (!second.ok) throw new Error(second.message);
    open.push(second.app);
    expect(second.app.currentSessionId()).toBe(id);
    second.app.agent.start();
    const after = second.app.agent.store.getState().toolLog.map(shown);
    expect(after).toEqual(before);
    // Nothing shows the model-facing frame where the result's line goes.
    for (const e of second.app.agent.store.getState().toolLog)
      expect(e.full ?? '', e.call).not.toMatch(/^\[RESULT /);
  });
});
