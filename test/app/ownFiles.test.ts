import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/createApp.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

const KEY = 'sk-own-files-SECRET-0123456789';

describe("Cogito's own files inside the workspace", () => {
  let server: ScriptedServer;
  let dir: string;
  let app: App | undefined;

  afterEach(async () => {
    await app?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are fenced off from every tool, and a key found elsewhere is redacted', async () => {
    server = await startScriptedServer();
    // The default layout: the home (config.json, data/) is the workspace itself.
    dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-own-'));
    await writeFile(
      path.join(dir, 'config.json'),
      JSON.stringify({ apiKey: KEY, baseURL: server.url, model: 'm' }),
    );
    await writeFile(path.join(dir, 'notes.txt'), `remember: the key is ${KEY}\n`);
    const calls = [
      'read("config.json")',
      'grep("sk-")',
      'copy("data", "stolen")',
      'delete("data")',
      'edit("config.json", "m", "n")',
      'read("notes.txt")',
    ];
    server.push(
      { kind: 'stream', content: calls.map((c) => `[TOOL] ${c} [/TOOL]`).join('\n') },
      { kind: 'stream', content: 'ok [WAIT]' },
    );
    const made = await createApp({
      flags: { home: dir, workspace: dir },
      env: {},
      initialState: 'AWAITING_INPUT',
    });
    if (!made.ok) throw new Error(made.message);
    app = made.app;
    // Say yes to everything: the fence must hold even when the user approves.
    app.agent.subscribe((e) => {
      if (e.type === 'approval_request')
        queueMicrotask(() => app!.agent.send({ type: 'answer_approval', answer: 'yes' }));
    });
    app.agent.start();
    app.agent.send({ type: 'submit', text: 'look around' });
    await waitForStore(
      app.agent.store,
      // user, the reply, one result per call (6), the closing reply
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === 9,
      'the turn',
    );

    const results = String(server.requests[1]!.body.messages.at(-1).content);
    expect(results).not.toContain(KEY);
    for (const c of [
      'read("config.json")',
      'copy("data", "stolen")',
      'delete("data")',
      'edit("config.json", "m", "n")',
    ]) {
      expect(results).toContain(`[RESULT ${c}] error`);
    }
    expect(results).toMatch(/settings file \(it holds the API key\)/);
    expect(results).toContain('[redacted secret]');
    expect(JSON.stringify(app.agent.store.getState().toolLog)).not.toContain(KEY);
    await app.close();
    const sessions = path.join(dir, 'data', 'sessions');
    for (const id of (await readdir(sessions)).filter((f) => !f.startsWith('.'))) {
      expect(await readFile(path.join(sessions, id, 'history.jsonl'), 'utf8')).not.toContain(KEY);
    }
    expect((await readdir(dir)).includes('stolen')).toBe(false);
  });
});
