/**
 * RESTORE does its real work: the first turn finishes the crash record the last run left
 * (before any request is built, so the model sees the recovered result), shows what it did
 * as a notice, and takes the user's queued message, saved after the recovered result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { makeMessage } from '../../src/core/messages.js';
import { createHarness } from '../helpers/agentHarness.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';
import { internalsOf } from '../helpers/agentInternals.js';

let base: string | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
  server = undefined;
});

async function open(env: NodeJS.ProcessEnv) {
  const ws = path.join(base!, 'ws');
  const home = path.join(base!, 'home');
  const made = await createApp({
    flags: { home, workspace: ws },
    env,
    initialState: 'AWAITING_INPUT',
    background: false,
  });
  if (!made.ok) throw new Error(made.message);
  return made.app;
}

describe('RESTORE', () => {
  it('finishes a crash record in the first turn, before BUILD, and takes the queued input', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-restore-'));
    base = dir;
    fs.mkdirSync(path.join(dir, 'ws'));
    fs.mkdirSync(path.join(dir, 'home'));
    const scripted = await startScriptedServer();
    server = scripted;
    const env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: scripted.url, COGITO_MODEL: 'm' };

    // The last run: a reply with one call saved ahead of its tool, and then a crash.
    const first = await open(env);
    internalsOf(first.agent).history.append(
      makeMessage('assistant', '[TOOL] ls(".") [/TOOL]', { calls: 1 }),
    );
    await first.close();

    const app = await open(env);
    try {
      // Opening the app finishes nothing: that is the first turn's RESTORE.
      expect(
        internalsOf(app.agent)
          .history.messages()
          .map((m) => m.role),
      ).toEqual(['assistant']);
      scripted.push({ kind: 'stream', content: 'noted [WAIT]' });
      app.agent.start();
      app.agent.send({ type: 'submit', text: 'hello' });
      const s = await waitForStore(app.agent.store, (st) => st.traces.length > 0, 'the turn');

      const phases = s.traces[0]!.phases.map((p) => p.phase);
      expect(phases.slice(0, 4)).toEqual(['RESTORE', 'COMPACT', 'COMMAND', 'BUILD']);
      expect(s.traces[0]!.phases[0]!.outcome).toBe('next');
      expect(s.notices.map((n) => [n.level, n.text])).toContainEqual([
        'warn',
        'The last run was cut off by a crash: 1 tool result(s) recorded as interrupted, 0 half-made change(s) undone.',
      ]);
      // History order: the reply, its recovered result, the user's message, the answer.
      const history = internalsOf(app.agent).history.messages();
      expect(history.map((m) => m.role)).toEqual(['assistant', 'tool', 'user', 'assistant']);
      expect(history[1]!.content).toMatch(/by a crash/);
      expect(history[2]!.content).toBe('hello');
      // The request was built after the record was finished: it carries the result.
      const sent = JSON.stringify(scripted.requests[0]!.body.messages);
      expect(sent).toMatch(/by a crash/);
      expect(sent.indexOf('by a crash')).toBeLessThan(sent.indexOf('hello'));
      // The screen shows the recovered result too.
      expect(s.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user', 'assistant']);
    } finally {
      await app.close();
    }
  });
});

describe('RESTORE when the crash record cannot be finished', () => {
  it('fails the turn before any request, keeps the input queued, and retries on the next turn', async () => {
    let attempts = 0;
    // Paused: no autonomous turn retries in between, so the test sees each turn's part.
    const h = await createHarness({
      initialState: 'PAUSED',
      restore: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('journal unreadable');
        return { results: 0, rolledBack: 0 };
      },
    });
    try {
      h.agent.start();
      h.agent.send({ type: 'submit', text: 'hello' });
      const failed = await waitForStore(h.agent.store, (s) => s.traces.length > 0, 'the turn');
      expect(failed.traces[0]!.phases[0]).toMatchObject({ phase: 'RESTORE', outcome: 'error' });
      expect(failed.notices.some((n) => /RESTORE failed: journal unreadable/.test(n.text))).toBe(
        true,
      );
      expect(h.server.requests).toHaveLength(0);
      // No tight loop: the input waits for the next turn, which finishes the record first.
      await h.agent.idle();
      expect(attempts).toBe(1);
      expect(internalsOf(h.agent).history.messages()).toEqual([]);
      h.server.push({ kind: 'stream', content: 'hi [WAIT]' });
      h.agent.send({ type: 'submit', text: 'again' });
      await waitForStore(h.agent.store, (s) => s.traces.length > 1, 'the second turn');
      expect(attempts).toBe(2);
      expect(
        internalsOf(h.agent)
          .history.messages()
          .map((m) => m.content),
      ).toEqual(['hello', 'again', 'hi [WAIT]']);
    } finally {
      await h.dispose();
    }
  });
});
