/**
 * A question whose reply is cut off, in the real program in a real terminal (tmux runs
 * `bin/cogito.ts` against the scripted server): the retry goes out inside the user's turn, as
 * the same request (it ends on the question, as the user's, no autonomous cue), the screen
 * says it retries, and the answer arrives. Skipped without tmux (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxPane } from '../helpers/tmuxPane.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-retry-e2e-${process.pid}`;
const QUESTION = 'what does the plan say';

const { tmux, keys, waitForScreen } = tmuxPane(socket, 'app', {
  timeoutMs: 30_000,
  intervalMs: 50,
});
const quote = shellQuote;

describeWithTmux('a cut-off reply to the user is retried as the user’s turn (tmux)', () => {
  let server: ScriptedServer;
  let tmp: string;
  let socketPath = '';

  beforeAll(async () => {
    server = await startScriptedServer();
    // 0: the first look ends by asking: the floor is the user's.
    server.push({ kind: 'stream', content: 'Ready when you are. [WAIT]' });
    // 1: the answer to the question breaks off mid-reply; 2: the retry's whole answer.
    server.push(
      { kind: 'stream', content: ['The plan ', 'says ', 'to'], dropAfterChunks: 2 },
      { kind: 'stream', content: 'The plan says to leave on Monday. [WAIT]' },
    );
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-retry-e2e-'));
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home);
    fs.mkdirSync(path.join(tmp, 'ws'));
    // A back-off long enough to see the screen say it retries.
    fs.writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ backoff: { baseMs: 1500, maxMs: 1500 } }),
    );
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tmp,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      COGITO_HOME: home,
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-retry-e2e',
      COGITO_MODEL: 'scripted-model',
    };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    const run = `clear; cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(path.join(tmp, 'ws'))}; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'app', run);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the question is sent again as the user’s, the screen says so, the answer arrives', async () => {
    await waitForScreen((s) => s.includes('Ready when you are.'), 'the first look');
    await waitForScreen((s) => (s.split('\n')[0] ?? '').includes('Your turn'), 'the floor');
    keys('-l', QUESTION);
    keys('Enter');
    await waitForScreen((s) => s.includes('retrying in'), 'the retry on screen');
    const s = await waitForScreen(
      (x) => x.includes('leave on Monday'),
      'the answer after the retry',
    );
    expect(s).not.toContain('EXIT=');
    expect(server.requests).toHaveLength(3);
    const [asked, retried] = [server.requests[1]!, server.requests[2]!];
    expect(retried.body.messages).toEqual(asked.body.messages);
    const last = (asked.body.messages as { role: string; content: string }[]).at(-1)!;
    // The request ends on the question as typed: no cue saying the user is away after it
    // (the first look's own note, earlier in the history, is where it was).
    expect(last).toEqual({ role: 'user', content: QUESTION });
  }, 90_000);
});
