/**
 * Background commands in the whole app: the store (the status bar) counts them, and they are
 * killed with their sandboxes on /new and when the app closes; /proc shows nothing left.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/createApp.js';
import { pidsWith } from '../helpers/procScan.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

const hasBwrap = existsSync('/usr/bin/bwrap') || process.env.CI === 'true';
const start = (command: string): string =>
  `[TOOL] run(${JSON.stringify(command)}, null, true) [/TOOL]`;

describe.runIf(process.platform === 'linux' && hasBwrap)('background commands in the app', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let app: App | undefined;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-bgapp-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-bgapp-home-'));
    await writeFile(path.join(home, 'config.json'), '{ "approval": { "process": "auto" } }');
    const made = await createApp({
      flags: { home, workspace: ws },
      env: { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' },
      initialState: 'AWAITING_INPUT',
    });
    if (!made.ok) throw new Error(made.message);
    app = made.app;
    app.agent.start();
  });
  afterEach(async () => {
    await app?.close();
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('counted in the store, killed on /new and on close', async () => {
    const a = app!;
    const marker = '87012.34';
    server.push(
      { kind: 'stream', content: start(`setsid sleep ${marker} & sleep ${marker}`) },
      { kind: 'stream', content: 'Started. [WAIT]' },
    );
    a.agent.send({ type: 'submit', text: 'start the server' });
    await waitForStore(a.agent.store, (s) => s.commandsRunning === 1, 'one running');
    await waitUntil(() => pidsWith(marker).length >= 2, 'both sleeps', 10_000);
    await waitForStore(a.agent.store, (s) => s.machine === 'AWAITING_INPUT', 'listening');
    const before = a.currentSessionId();
    a.agent.send({ type: 'new_session' });
    await waitUntil(() => a.currentSessionId() !== before, 'the new session', 10_000);
    await waitForStore(a.agent.store, (s) => s.commandsRunning === 0, 'none running');
    await waitUntil(() => pidsWith(marker).length === 0, 'no sleep left after /new', 5_000);

    const second = '87012.35';
    server.push(
      { kind: 'stream', content: start(`sleep ${second}`) },
      { kind: 'stream', content: 'Again. [WAIT]' },
    );
    await waitForStore(
      a.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && !s.streaming,
      'listening',
    );
    a.agent.send({ type: 'submit', text: 'start it again' });
    await waitUntil(() => pidsWith(second).length >= 1, 'the sleep', 10_000);
    const failures = await a.close();
    expect(failures).toEqual([]);
    app = undefined;
    expect(pidsWith(second)).toEqual([]);
  }, 60_000);
});
