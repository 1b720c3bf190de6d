/**
 * Reminders belong to the folder and survive a restart: set in one run, they are in the
 * home; one that fell due while Cogito was closed fires once, in the first request of the
 * user's next run (a script's `-p` run leaves it), and never again. Through the real program (print mode) and the scripted server.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { reminderFilePath } from '../../src/reminders/reminderFile.js';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { internalsOf } from '../helpers/agentInternals.js';

describe('reminders survive a restart and belong to the folder', () => {
  let server: ScriptedServer;
  let ws: string;
  let other: string;
  let home: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startScriptedServer();
    ws = await mkdtemp(path.join(os.tmpdir(), 'cogito-rem-ws-'));
    other = await mkdtemp(path.join(os.tmpdir(), 'cogito-rem-other-'));
    home = await mkdtemp(path.join(os.tmpdir(), 'cogito-rem-home-'));
    env = { COGITO_API_KEY: 'k', COGITO_BASE_URL: server.url, COGITO_MODEL: 'scripted' };
  });
  afterEach(async () => {
    await server.close();
    for (const d of [ws, other, home]) await rm(d, { recursive: true, force: true });
  });

  const run = (prompt: string, folder = ws) =>
    runCogito(['-p', prompt, '--workspace', folder, '--home', home, '--think-interval', '0'], env);

  it('a reminder the model set is saved; after "a day" it fires once on the next start', async () => {
    server.push(
      { kind: 'stream', content: 'Noted.\n[TOOL] remind("1d", "water the plants") [/TOOL]' },
      { kind: 'stream', content: 'Set. [WAIT]' },
    );
    const first = run('remind me tomorrow to water the plants');
    expect(await first.code, first.stderr()).toBe(0);

    // The reminder is in the home, under this folder.
    const files = await readdir(path.join(home, 'data', 'reminders'));
    expect(files).toHaveLength(1);
    const file = path.join(home, 'data', 'reminders', files[0]!);
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      reminders: { at: number; what: string }[];
    };
    expect(saved.reminders.map((r) => r.what)).toEqual(['water the plants']);
    expect(saved.reminders[0]!.at).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // A day passes while Cogito is closed (the saved time moved into the past).
    saved.reminders[0]!.at = Date.now() - 60_000;
    await writeFile(file, JSON.stringify(saved));

    // Another folder does not see it.
    server.push({ kind: 'stream', content: 'Nothing due here. [WAIT]' });
    const elsewhere = run('anything due?', other);
    expect(await elsewhere.code, elsewhere.stderr()).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).not.toContain('water the plants');

    // A script's run in this folder leaves it: it is the user's (scriptsLeaveUserThings).
    server.push({ kind: 'stream', content: 'Report done. [WAIT]' });
    const script = run('nightly report');
    expect(await script.code, script.stderr()).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).not.toContain('water the plants');

    // The user's next start in this folder: the due reminder is in its first request.
    const count = server.requests.length;
    server.push({ kind: 'stream', content: 'Time to water the plants. [WAIT]' });
    const made = await createApp({
      flags: { home, workspace: ws },
      env,
      initialState: 'AWAITING_INPUT',
      background: false,
    });
    if (!made.ok) throw new Error(made.message);
    try {
      made.app.agent.start();
      made.app.agent.send({ type: 'submit', text: 'good morning' });
      await server.waitForRequest(count, 20_000);
      expect(JSON.stringify(server.requests[count]!.body.messages)).toContain(
        'Reminder due: water the plants',
      );
    } finally {
      await made.app.close();
    }

    // Taken once: the file no longer holds it and the run after does not see it again.
    const after = JSON.parse(await readFile(file, 'utf8')) as { reminders: unknown[] };
    expect(after.reminders).toEqual([]);
    server.push({ kind: 'stream', content: 'Hello. [WAIT]' });
    const third = run('hello again');
    expect(await third.code, third.stderr()).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages.slice(-1))).not.toContain(
      'Reminder due',
    );
  }, 60_000);

  it('a reminder the user set (/remind) is there for the next run in the folder', async () => {
    const open = async () => {
      const r = await createApp({
        flags: { home, workspace: ws },
        env,
        initialState: 'AWAITING_INPUT',
        background: false,
      });
      if (!r.ok) throw new Error(r.message);
      return r.app;
    };
    const a = await open();
    const at = Date.now() + 3600_000;
    expect(
      typeof internalsOf(a.agent).alwaysOn.reminders.add(at, 'call the bank', 'user'),
    ).not.toBe('string');
    await a.close();

    const b = await open();
    try {
      expect(
        internalsOf(b.agent)
          .alwaysOn.reminders.pending()
          .map((r) => r.what),
      ).toEqual(['call the bank']);
    } finally {
      await b.close();
    }
  });

  it('a damaged reminders file is a clear warning, and the run goes on', async () => {
    const file = reminderFilePath(path.join(home, 'data'), ws);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{ not json');
    const r = await createApp({ flags: { home, workspace: ws }, env, background: false });
    if (!r.ok) throw new Error(r.message);
    try {
      expect(r.app.warnings.join('\n')).toMatch(
        /saved reminders in .* were damaged .*; the original was kept as .*\.corrupt-.*\.json/,
      );
    } finally {
      await r.app.close();
    }
  });
});
