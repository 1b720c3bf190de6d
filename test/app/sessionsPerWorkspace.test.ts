/**
 * Sessions belong to the workspace they were started in: one home, two folders, and each
 * folder resumes its own conversation; naming another folder's session needs --force or the
 * user's yes; sessions from before that rule are kept and listed as "no folder".
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App, type AppOptions } from '../../src/app/createApp.js';
import type { ForeignSession } from '../../src/app/openWorkspaceSession.js';
import { sessionList } from '../../src/commands/sessionList.js';
import { SessionStore } from '../../src/history/index.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('sessions belong to a workspace', () => {
  let server: ScriptedServer;
  let root: string;
  let home: string;
  let wsA: string;
  let wsB: string;
  let env: NodeJS.ProcessEnv;
  const apps: App[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-ws-sessions-')));
    home = path.join(root, 'home');
    wsA = path.join(root, 'A');
    wsB = path.join(root, 'B');
    for (const dir of [home, wsA, wsB]) await mkdir(dir);
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  async function open(
    workspace: string,
    more: Partial<AppOptions['flags']> = {},
    extra: Partial<AppOptions> = {},
  ): Promise<Awaited<ReturnType<typeof createApp>>> {
    const made = await createApp({
      flags: { home, workspace, ...more },
      env,
      initialState: 'AWAITING_INPUT',
      ...extra,
    });
    if (made.ok) apps.push(made.app);
    return made;
  }

  async function openOk(workspace: string, more: Partial<AppOptions['flags']> = {}): Promise<App> {
    const made = await open(workspace, more);
    if (!made.ok) throw new Error(made.message);
    // Starting puts the loaded history on screen (in the store); the machine stays idle.
    made.app.agent.start();
    return made.app;
  }

  async function closeAll(): Promise<void> {
    for (const app of apps.splice(0)) await app.close();
  }

  /** One exchange in `app`, saved before it returns. */
  async function talk(app: App, said: string, reply: string): Promise<void> {
    server.push({ kind: 'stream', content: `${reply} [WAIT]` });
    const before = app.agent.store.getState().messages.length;
    app.agent.send({ type: 'submit', text: said });
    await waitForStore(
      app.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === before + 2,
      `the reply "${reply}"`,
    );
  }

  const shown = (app: App): string[] =>
    app.agent.store.getState().messages.map((m) => String(m.content));
  const sessionId = (app: App): string => app.currentSessionId();

  it('workspace A, then B, then A again: B starts clean, A resumes A', async () => {
    const a1 = await openOk(wsA);
    await talk(a1, 'the notes in A are about tea', 'Noted: tea.');
    const idA = sessionId(a1);
    await closeAll();

    const b = await openOk(wsB);
    expect(shown(b)).toEqual([]);
    expect(sessionId(b)).not.toBe(idA);
    await talk(b, 'B holds invoices', 'Noted: invoices.');
    // What B sends the model carries nothing of A's conversation.
    const sentFromB = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(sentFromB).not.toContain('about tea');
    expect(sentFromB).not.toContain('Noted: tea');
    await closeAll();

    const a2 = await openOk(wsA);
    expect(sessionId(a2)).toBe(idA);
    expect(shown(a2)).toEqual(['the notes in A are about tea', 'Noted: tea. [WAIT]']);
    const meta = JSON.parse(
      await readFile(path.join(home, 'data', 'sessions', idA, 'meta.json'), 'utf8'),
    ) as { workspace?: string };
    expect(meta.workspace).toBe(wsA);
  });

  it('--session of another workspace is refused without a yes, and opened with --force', async () => {
    const a = await openOk(wsA);
    await talk(a, 'hello from A', 'Hi A.');
    const idA = sessionId(a);
    await closeAll();

    const refused = await open(wsB, { session: idA });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toContain(wsA);
    expect(refused.message).toContain('--force');

    // The full-screen app asks; "no" refuses, "yes" opens it.
    const asked: ForeignSession[] = [];
    const declined = await open(
      wsB,
      { session: idA },
      {
        confirmSession: async (s) => (asked.push(s), false),
      },
    );
    expect(declined.ok).toBe(false);
    expect(asked).toEqual([{ id: idA, sessionWorkspace: wsA, workspace: wsB }]);
    const accepted = await open(wsB, { session: idA }, { confirmSession: async () => true });
    expect(accepted.ok && sessionId(accepted.app)).toBe(idA);
    await closeAll();

    const forced = await openOk(wsB, { session: idA, force: true });
    expect(shown(forced)).toEqual(['hello from A', 'Hi A. [WAIT]']);
  });

  it('a session without a workspace is kept, listed as "no folder", and never resumed by itself', async () => {
    // A session as Cogito wrote them before sessions had a folder.
    const legacyId = '2026-01-02T03-04-05-006-old';
    const legacy = path.join(home, 'data', 'sessions', legacyId);
    await mkdir(legacy, { recursive: true });
    await writeFile(
      path.join(legacy, 'meta.json'),
      JSON.stringify({ id: legacyId, createdAt: 1, firstUserLine: 'old talk' }),
    );
    await writeFile(path.join(legacy, 'history.jsonl'), '');

    const a = await openOk(wsA);
    expect(sessionId(a)).not.toBe(legacyId);
    await talk(a, 'new talk in A', 'Fine.');
    await closeAll();
    const b = await openOk(wsB);
    await talk(b, 'talk in B', 'Fine.');

    const list = await new SessionStore(path.join(home, 'data'), { workspace: wsB }).list();
    const text = sessionList(list, sessionId(b), 'en');
    const lines = text.split('\n');
    // This folder's sessions first, then the others with their folder, then "no folder".
    expect(lines[0]).toMatch(/^Sessions of this folder/);
    expect(lines[1]).toMatch(/^\* .*talk in B/);
    expect(lines[2]).toMatch(/^Other folders/);
    expect(text).toContain(`new talk in A  [folder: ${wsA}]`);
    expect(text).toContain('old talk  [no folder]');
    await closeAll();

    // Named explicitly, it opens (no folder to disagree with) and belongs to A from then on.
    const adopted = await openOk(wsA, { session: legacyId });
    expect(sessionId(adopted)).toBe(legacyId);
    const meta = JSON.parse(await readFile(path.join(legacy, 'meta.json'), 'utf8')) as {
      workspace?: string;
      firstUserLine?: string;
    };
    expect(meta).toMatchObject({ workspace: wsA, firstUserLine: 'old talk' });
  });
});
