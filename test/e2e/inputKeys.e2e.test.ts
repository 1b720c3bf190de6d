/**
 * The input line in a real terminal (tmux) against the scripted server:
 * - after an absence (`awayAfterMs` shortened in config.json, so no ten-minute wait) the first
 *   key opens the "while you were away" digest and every typed letter still arrives:
 *   "rate limit please" reaches the model whole (issue 33, point 5);
 * - a 40-line paste (tmux `paste-buffer -p`: a bracketed paste) shows as `[pasted 40 lines]`
 *   and the whole text is sent;
 * - `@no` + Tab puts `@notes.md` in the line from the path list, and the request carries the
 *   file's content while the conversation shows it as one collapsed line.
 * Skipped without tmux (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxWindows } from '../helpers/tmuxPane.js';
import { waitUntil } from '../helpers/waitFor.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-input-${process.pid}`;
/** The shortened absence: long enough for start-up keys to be over, short for a test. */
const AWAY_MS = 2500;
const NOTE = 'NOTES-CONTENT-7731: the budget review is on Thursday.';

const { tmux, keys, waitForScreen } = tmuxWindows(socket);
const quote = shellQuote;
const status = (s: string): string => s.split('\n')[0] ?? '';
const inputLine = (s: string): string => {
  const lines = s.split('\n');
  return (lines[lines.findIndex((l) => / Input [─━]/.test(l)) + 1] ?? '').trimEnd();
};

/** The user messages of every request so far, joined (what the model was sent). */
const userText = (server: ScriptedServer): string =>
  server.requests
    .flatMap((r) => r.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n---\n');

describeWithTmux('the input line in tmux: the digest, pastes and @ mentions', () => {
  let server: ScriptedServer;
  let tmp: string;
  let socketPath = '';

  /** Starts the screen in tmux session `name`, with its own home, config.json and folder. */
  const startScreen = (name: string, config: object): void => {
    const home = path.join(tmp, `home-${name}`);
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify(config));
    const ws = name === 'main' ? path.join(tmp, 'ws') : path.join(tmp, `ws-${name}`);
    fs.mkdirSync(ws, { recursive: true });
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tmp,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      COGITO_HOME: home,
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-input-e2e',
      COGITO_MODEL: 'scripted-model',
    };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    const run = `clear; cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(ws)} --think-interval 600000; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', name, run);
    socketPath ||= tmux('display-message', '-p', '#{socket_path}').trim();
  };

  beforeAll(async () => {
    server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Noted. [WAIT]' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-input-e2e-'));
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'archive'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'notes.md'), `${NOTE}\n`);
    fs.writeFileSync(path.join(ws, 'archive', 'old.txt'), 'old\n');
    fs.writeFileSync(path.join(ws, 'readme.txt'), 'read me\n');
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('after an absence the digest opens and every typed letter arrives', async () => {
    startScreen('away', { awayAfterMs: AWAY_MS });
    await waitForScreen('away', (s) => status(s).includes('Your turn'), 'the first look');
    // No key for longer than the absence (the screen counts from its start).
    const quietSince = Date.now();
    await waitUntil(() => Date.now() - quietSince > AWAY_MS + 500, 'the absence', {
      timeoutMs: AWAY_MS + 5_000,
      intervalMs: 100,
    });
    const before = server.requests.length;
    // The first key alone (it opens the digest), then the rest as a fast typist sends them.
    keys('away', '-l', 'r');
    keys('away', '-l', 'ate limit please');
    const s = await waitForScreen(
      'away',
      (x) => x.includes('While you were away') && inputLine(x) === '› rate limit please',
      'the digest over the whole message',
    );
    expect(s).not.toContain('EXIT=');
    keys('away', 'Enter');
    await waitUntil(() => server.requests.length > before, 'the message sent', 30_000);
    expect(userText(server)).toContain('rate limit please');
    expect(userText(server)).not.toMatch(/(^|\n)te limit please/);
  }, 90_000);

  test('a 40-line paste is one placeholder and is sent whole; @no + Tab attaches notes.md', async () => {
    startScreen('main', {});
    await waitForScreen('main', (s) => status(s).includes('Your turn'), 'the first look');

    // A bracketed paste (the program turned the mode on; -p keeps it).
    const lines = Array.from({ length: 40 }, (_, i) => `pasted row ${i + 1} of the log`);
    const file = path.join(tmp, 'paste.txt');
    fs.writeFileSync(file, lines.join('\n'));
    tmux('load-buffer', '-b', 'big', file);
    keys('main', '-l', 'look: ');
    tmux('paste-buffer', '-p', '-b', 'big', '-t', 'main');
    const pasted = await waitForScreen(
      'main',
      (x) => inputLine(x) === '› look: [pasted 40 lines]',
      'the placeholder',
    );
    expect(pasted).not.toContain('pasted row 2 of');
    let before = server.requests.length;
    keys('main', 'Enter');
    await waitUntil(() => server.requests.length > before, 'the paste sent', 30_000);
    expect(userText(server)).toContain(`look: ${lines.join('\n')}`);
    await waitForScreen('main', (x) => status(x).includes('Your turn'), 'the answer');

    // @no: the list under the input; Tab puts the path; Enter sends with the file attached.
    keys('main', '-l', 'summarise @no');
    await waitForScreen('main', (x) => x.includes('▸ @notes.md'), 'the path list');
    keys('main', 'Tab');
    await waitForScreen(
      'main',
      (x) => inputLine(x) === '› summarise @notes.md' && !x.includes('▸ @'),
      'the path put in the line',
    );
    before = server.requests.length;
    keys('main', 'Enter');
    await waitUntil(() => server.requests.length > before, 'the mention sent', 30_000);
    const sent = userText(server);
    expect(sent).toContain('[Attached by the user: @notes.md]');
    expect(sent).toContain(NOTE);
    const shown = await waitForScreen(
      'main',
      (x) => x.includes('↳ attached notes.md ('),
      'the attachment collapsed in the conversation',
    );
    expect(shown).not.toContain('NOTES-CONTENT-7731');
  }, 120_000);
});
