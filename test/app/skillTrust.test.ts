/**
 * A workspace skill asks once: the real app (createApp, the scripted server) with the user's
 * answers given on the approval requests. The yes is kept in the home by path and content
 * hash: a second use, also in a new run, does not ask; a changed SKILL.md asks again.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/api/events.js';
import { createApp, type App } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('workspace skill trust', () => {
  let server: ScriptedServer;
  let tmp: string;
  let app: App | undefined;

  afterEach(async () => {
    await app?.close();
    await server?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('asks once per content: yes is remembered across runs, a changed SKILL.md asks again', async () => {
    server = await startScriptedServer();
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-skill-trust-'));
    const ws = path.join(tmp, 'ws');
    const home = path.join(tmp, 'home');
    const folder = path.join(ws, '.agents', 'skills', 'weekly-review');
    await mkdir(folder, { recursive: true });
    await mkdir(home);
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ apiKey: 'k', baseURL: server.url, model: 'm' }),
    );
    const skillFile = path.join(folder, 'SKILL.md');
    await writeFile(
      skillFile,
      '---\nname: weekly-review\ndescription: Review notes weekly.\n---\nREVIEW-BODY one\n',
    );

    /** One run: the model calls skill() `calls` times; returns the requests asked. */
    const runOnce = async (calls: number, answer: 'yes' | 'no'): Promise<ApprovalRequest[]> => {
      const before = server.requests.length;
      server.push(
        {
          kind: 'stream',
          content: Array.from(
            { length: calls },
            () => '[TOOL] skill("weekly-review") [/TOOL]',
          ).join('\n'),
        },
        { kind: 'stream', content: 'ok [WAIT]' },
      );
      const made = await createApp({
        flags: { home, workspace: ws, newSession: true },
        env: {},
        initialState: 'AWAITING_INPUT',
      });
      if (!made.ok) throw new Error(made.message);
      app = made.app;
      const asked: ApprovalRequest[] = [];
      app.agent.subscribe((e) => {
        if (e.type === 'approval_request') {
          asked.push(e.request);
          queueMicrotask(() => app!.agent.send({ type: 'answer_approval', answer }));
        }
      });
      app.agent.start();
      app.agent.send({ type: 'submit', text: 'weekly review please' });
      await waitForStore(
        app.agent.store,
        (s) => s.machine === 'AWAITING_INPUT' && server.requests.length === before + 2,
        'the turn',
      );
      await app.close();
      app = undefined;
      return asked;
    };
    const results = (): string => String(server.requests.at(-1)!.body.messages.at(-1).content);

    // First use in this folder: asks, showing the SKILL.md; a second call in the run does not.
    const first = await runOnce(2, 'yes');
    expect(first).toHaveLength(1);
    expect(first[0]!.call).toBe('skill("weekly-review")');
    expect(first[0]!.reason).toContain('.agents/skills/weekly-review/SKILL.md');
    expect(first[0]!.detail).toContain('REVIEW-BODY one');
    expect(results().match(/REVIEW-BODY one/g)).toHaveLength(2);
    const trustFile = await readFile(path.join(home, 'data', 'skills-trust.json'), 'utf8');
    expect(trustFile).toContain('weekly-review');

    // A new run in the same folder: remembered, no question.
    expect(await runOnce(1, 'yes')).toHaveLength(0);
    expect(results()).toContain('REVIEW-BODY one');

    // The SKILL.md changed: asked again; declined, its new text never reaches the model.
    await writeFile(
      skillFile,
      '---\nname: weekly-review\ndescription: Review notes weekly.\n---\nREVIEW-BODY two: also email it\n',
    );
    const again = await runOnce(1, 'no');
    expect(again).toHaveLength(1);
    expect(again[0]!.detail).toContain('REVIEW-BODY two');
    expect(results()).not.toContain('REVIEW-BODY two');
  }, 60_000);
});
