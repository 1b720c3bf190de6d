/**
 * A script's `cogito -p` (a cron job) never eats the user's things, through the real program
 * and the scripted server: a reminder that fell due while Cogito was closed survives the
 * script's run untouched and is delivered by the user's next interactive run (the background
 * agent); after the script's run, the screen's start-up still resumes the user's session,
 * `-p -c` continues the script's own, and /sessions lists the script's session apart.
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { SessionStore } from '../../src/history/index.js';
import { reminderFilePath } from '../../src/reminders/reminderFile.js';
import { backgroundFolder, type BackgroundFolder } from '../helpers/backgroundFolder.js';

describe('a -p run leaves the user its reminders and its session', () => {
  let f: BackgroundFolder;
  beforeEach(async () => {
    f = await backgroundFolder();
  });
  afterEach(async () => {
    await f.close();
  });

  const requestText = (i: number): string => JSON.stringify(f.server.requests[i]!.body.messages);
  const store = (kind?: 'print'): SessionStore =>
    new SessionStore(path.join(f.home, 'data'), { workspace: f.ws, ...(kind ? { kind } : {}) });

  it('a due reminder survives a -p run and is delivered by the next interactive run', async () => {
    // What the app writes: the folder's file in the home, one reminder due an hour ago.
    const file = reminderFilePath(path.join(f.home, 'data'), f.ws);
    await mkdir(path.dirname(file), { recursive: true });
    const body = {
      workspace: f.ws,
      reminders: [{ id: 1, at: Date.now() - 3600_000, what: 'call the bank', by: 'user' }],
    };
    await writeFile(file, JSON.stringify(body, null, 2) + '\n');
    const before = await readFile(file, 'utf8');

    f.server.push({ kind: 'stream', content: 'Backup checked. [WAIT]' });
    const script = await f.cogito(['-p', 'check the backup log', '--think-interval', '0']);
    expect(script.code, script.err).toBe(0);
    expect(script.out).toContain('Backup checked.');
    expect(f.server.requests).toHaveLength(1);
    expect(requestText(0)).not.toContain('call the bank');
    // Untouched, byte for byte.
    expect(await readFile(file, 'utf8')).toBe(before);

    // The user's background agent: its first look carries the reminder, and takes it.
    await f.startAgent();
    await f.server.waitForRequest(1, 20_000);
    expect(requestText(1)).toContain('Reminder due: call the bank');
    const after = JSON.parse(await readFile(file, 'utf8')) as { reminders: unknown[] };
    expect(after.reminders).toEqual([]);
  }, 60_000);

  it('after a -p run the screen resumes the user session; -p -c continues the script one', async () => {
    // The user's session: made by the background agent (interactive, like the screen).
    await f.startAgent();
    await f.server.waitForRequest(0, 20_000);
    expect((await f.cogito(['stop'])).code).toBe(0);
    const user = await store().latest();
    expect(user?.kind).toBe('interactive');

    f.server.push({ kind: 'stream', content: 'Script one. [WAIT]' });
    const first = await f.cogito(['-p', 'nightly report', '--think-interval', '0']);
    expect(first.code, first.err).toBe(0);
    const all = await store().list();
    const script = all.find((s) => s.id !== user!.id);
    expect(script?.kind).toBe('print');
    // The script's session is the newest on disk, and still not the one start-up picks.
    expect(all[0]!.id).toBe(script!.id);
    expect((await store().latest())?.id).toBe(user!.id);
    expect((await store('print').latest())?.id).toBe(script!.id);

    // The screen's own start-up (createApp as the screen calls it) opens the user's session.
    const screen = await createApp({
      flags: { home: f.home, workspace: f.ws },
      env: {
        COGITO_API_KEY: 'k',
        COGITO_BASE_URL: f.server.url,
        COGITO_MODEL: 'scripted',
      },
      initialState: 'AWAITING_INPUT',
      background: false,
    });
    if (!screen.ok) throw new Error(screen.message);
    try {
      expect(screen.app.currentSessionId()).toBe(user!.id);
    } finally {
      await screen.app.close();
    }

    // -p -c goes on in the script's session, not the user's.
    f.server.push({ kind: 'stream', content: 'Script two. [WAIT]' });
    const next = await f.cogito(['-p', 'and the totals?', '-c', '--think-interval', '0']);
    expect(next.code, next.err).toBe(0);
    const sent = JSON.stringify(f.server.requests.at(-1)!.body.messages);
    expect(sent).toContain('nightly report');
    expect((await store().list()).length).toBe(2);

    // /sessions: the user's session under this folder, the script's in its own group.
    const listed = await f.cogito(['-p', '/sessions', '-c']);
    expect(listed.code, listed.err).toBe(0);
    const text = listed.out + listed.err;
    const here = text.indexOf('Sessions of this folder');
    const scripts = text.indexOf('Script runs in this folder');
    expect(here, text).toBeGreaterThanOrEqual(0);
    expect(scripts).toBeGreaterThan(here);
    expect(text.indexOf(user!.id)).toBeGreaterThan(here);
    expect(text.indexOf(user!.id)).toBeLessThan(scripts);
    expect(text.indexOf(script!.id)).toBeGreaterThan(scripts);
  }, 90_000);
});
