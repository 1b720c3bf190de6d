import { mkdtemp, mkdir, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localSince } from '../../src/app/busyMessage.js';
import { createApp, type App } from '../../src/app/createApp.js';
import { folderLockFile } from '../../src/history/lock.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('createApp: sessions, restart, lock, recovery, import', () => {
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const apps: App[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-app-ws-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-app-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  async function open(): Promise<App> {
    const made = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
    });
    if (!made.ok) throw new Error(made.message);
    apps.push(made.app);
    return made.app;
  }

  it('the store knows the cycle limit before the agent starts (no 0/∞ first frame)', async () => {
    await writeFile(path.join(home, 'config.json'), '{ "maxAutonomousCycles": 7 }');
    const app = await open();
    // Not started: this is what the first frame is drawn from.
    expect(app.agent.store.getState().maxCycles).toBe(7);
    expect(app.agent.store.getState().contextWindow).toBeGreaterThan(0);
  });

  it('an autonomous reply keeps its cycle number in the history', async () => {
    server.push({ kind: 'stream', content: 'Looked around. [WAIT]' });
    const app = await createApp({ flags: { home, workspace: ws }, env, initialState: 'THINKING' });
    if (!app.ok) throw new Error(app.message);
    apps.push(app.app);
    app.app.agent.start();
    await waitForStore(app.app.agent.store, (s) => s.messages.length === 1, 'the reply');
    expect(app.app.agent.store.getState().messages[0]).toMatchObject({
      role: 'assistant',
      cycle: 1,
    });
  });

  it('after a restart the previous conversation is on screen and in the next request', async () => {
    server.push({ kind: 'stream', content: 'Nice to meet you, Ada. [WAIT]' });
    const first = await open();
    first.agent.start();
    first.agent.send({ type: 'submit', text: 'my name is Ada' });
    await waitForStore(
      first.agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === 2,
      'the reply',
    );
    await first.close();
    apps.length = 0;

    const second = await open();
    second.agent.start();
    const shown = second.agent.store.getState().messages.map((m) => m.content);
    expect(shown).toEqual(['my name is Ada', 'Nice to meet you, Ada. [WAIT]']);
    server.push({ kind: 'stream', content: 'You are Ada. [WAIT]' });
    second.agent.send({ type: 'submit', text: 'what is my name?' });
    const req = await server.waitForRequest(1);
    const contents = (req.body.messages as { content: string }[]).map((m) => m.content);
    expect(contents).toContain('my name is Ada');
    expect(contents.some((c) => c.startsWith('Nice to meet you, Ada.'))).toBe(true);
  });

  it('a second Cogito on the same folder refuses to start with a clear message', async () => {
    // A live process that is not us holds the folder's lock.
    const lock = folderLockFile(home, await realpath(ws));
    await mkdir(path.dirname(lock), { recursive: true });
    await writeFile(lock, `${process.ppid}\n2026-12-01T09:30:00.000Z\n${ws}\n`);
    const made = await createApp({ flags: { home, workspace: ws }, env });
    expect(made.ok).toBe(false);
    if (!made.ok) {
      expect(made.message).toContain(
        `pid ${process.ppid}, running since ${localSince('2026-12-01T09:30:00.000Z')}`,
      );
      expect(made.message).toContain(`kill ${process.ppid}`);
      expect(made.exitCode).toBe(3);
    }
  });

  it('a stale lock is recovered', async () => {
    const lock = folderLockFile(home, await realpath(ws));
    await mkdir(path.dirname(lock), { recursive: true });
    await writeFile(lock, '999999\n');
    const app = await open();
    expect(app.agent.state).toBe('AWAITING_INPUT');
  });

  it('a corrupt history is moved aside with a warning and its readable part recovered', async () => {
    const first = await open();
    server.push({ kind: 'stream', content: 'hello [WAIT]' });
    first.agent.start();
    first.agent.send({ type: 'submit', text: 'hi there' });
    await waitForStore(
      first.agent.store,
      (s) => s.messages.length === 2 && s.machine === 'AWAITING_INPUT',
      'reply',
    );
    await first.close();
    apps.length = 0;
    const sessionsDir = path.join(home, 'data', 'sessions');
    const [id] = await readdir(sessionsDir);
    const file = path.join(sessionsDir, id!, 'history.jsonl');
    const { appendFile } = await import('node:fs/promises');
    await appendFile(file, '{"t":"msg","m":{"id":"x","ro');

    const second = await open();
    expect(second.warnings.join('\n')).toMatch(/history\.corrupt-/);
    second.agent.start();
    expect(second.agent.store.getState().messages.map((m) => m.content)).toEqual([
      'hi there',
      'hello [WAIT]',
    ]);
    const files = await readdir(path.join(sessionsDir, id!));
    expect(files.some((f) => f.startsWith('history.corrupt-'))).toBe(true);
  });

  it('imports a CogitoAgent conversation.json once into a new session and leaves it in place', async () => {
    await mkdir(path.join(home, 'data'), { recursive: true });
    const source = path.join(home, 'data', 'conversation.json');
    await writeFile(
      source,
      JSON.stringify([
        { role: 'user', content: 'remember the blue folder' },
        { role: 'assistant', content: 'noted: the blue folder' },
      ]),
    );
    const app = await open();
    app.agent.start();
    expect(app.agent.store.getState().messages.map((m) => m.content)).toEqual([
      'remember the blue folder',
      'noted: the blue folder',
    ]);
    await app.close();
    apps.length = 0;
    // Left where it is, and not imported a second time.
    const again = await open();
    again.agent.start();
    expect(again.agent.store.getState().messages).toHaveLength(2);
    const { stat } = await import('node:fs/promises');
    expect((await stat(source)).isFile()).toBe(true);
    const sessions = (await readdir(path.join(home, 'data', 'sessions'))).filter(
      (f) => !f.startsWith('.'),
    );
    expect(sessions).toHaveLength(1);
  });

  it('an invalid config stops with the field and exit code 2, leaving the file untouched', async () => {
    await writeFile(path.join(home, 'config.json'), '{ "maxAutonomousCycles": "lots" }');
    const made = await createApp({ flags: { home, workspace: ws }, env });
    expect(made.ok).toBe(false);
    if (!made.ok) {
      expect(made.exitCode).toBe(2);
      expect(made.message).toContain('maxAutonomousCycles');
    }
  });
});

describe('--debug', () => {
  it('writes request metadata and timings under the home, never the key or contents', async () => {
    const server = await startScriptedServer();
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-dbg-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-dbg-home-'));
    server.push({ kind: 'stream', content: 'a private reply [WAIT]' });
    const made = await createApp({
      flags: { home, workspace: ws, debug: true },
      env: { COGITO_API_KEY: 'sk-debug-secret', COGITO_BASE_URL: server.url, COGITO_MODEL: 'm' },
      initialState: 'AWAITING_INPUT',
    });
    if (!made.ok) throw new Error(made.message);
    const { agent } = made.app;
    agent.start();
    agent.send({ type: 'submit', text: 'a private question' });
    await waitForStore(
      agent.store,
      (s) => s.machine === 'AWAITING_INPUT' && s.messages.length === 2,
      'reply',
    );
    await made.app.close();
    const logLine = made.app.warnings.find((w) => w.startsWith('debug log: '))!;
    const { readFile } = await import('node:fs/promises');
    const log = await readFile(logLine.slice('debug log: '.length), 'utf8');
    expect(log).toContain('"type":"request_start"');
    expect(log).toContain('"type":"turn_end"');
    expect(log).not.toContain('sk-debug-secret');
    expect(log).not.toContain('a private');
    await server.close();
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });
});

describe('--debug and close', () => {
  it('closing the app detaches the debug log: later events are not written', async () => {
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-dbg2-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-dbg2-home-'));
    try {
      const made = await createApp({
        flags: { home, workspace: ws, debug: true },
        env: { COGITO_BASE_URL: 'http://127.0.0.1:9/v1' },
        initialState: 'AWAITING_INPUT',
      });
      if (!made.ok) throw new Error(made.message);
      const { agent } = made.app;
      const file = made.app.warnings.find((w) => w.startsWith('debug log: '))!.slice(11);
      const { readFile } = await import('node:fs/promises');
      agent.send({ type: 'pause', reason: 'while open' });
      expect(await readFile(file, 'utf8')).toContain('while open');
      expect(await made.app.close()).toEqual([]);
      agent.send({ type: 'resume' });
      agent.send({ type: 'pause', reason: 'after close' });
      expect(await readFile(file, 'utf8')).not.toContain('after close');
    } finally {
      await rm(ws, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('start-up warnings', () => {
  it('a search provider without its key is named with the fix, and Cogito still starts', async () => {
    const ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-warn-ws-'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'cogito-warn-home-'));
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ search: { provider: 'tavily' } }),
    );
    const made = await createApp({
      flags: { home, workspace: ws },
      env: { COGITO_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(made.ok).toBe(true);
    if (made.ok) {
      expect(made.app.warnings.join('\n')).toMatch(/search\.tavilyKey/);
      await made.app.close();
    }
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });
});
