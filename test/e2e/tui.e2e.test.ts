/**
 * The real program in a real terminal: tmux runs `bin/cogito.ts` against the scripted
 * OpenAI-compatible server, and the test types keys and reads the screen. Skipped (with a
 * message) when tmux is not installed: `apt-get install tmux` (CI's .ci/run does).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { displayWidth } from '../../components/text/wrap.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { waitFor } from '../helpers/waitForFrame.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux)
  console.warn('test/e2e/tui.e2e.test.ts: skipped, tmux is not installed (apt-get install tmux)');

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-e2e-${process.pid}`;
const SECRET = 'sk-e2e-never-shown-1234';
const INTERVAL_MS = 300;
const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-t', 'app');
const keys = (...k: string[]): string => tmux('send-keys', '-t', 'app', ...k);
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function waitForScreen(predicate: (s: string) => boolean, what: string): Promise<string> {
  let last = '';
  try {
    await waitFor(() => predicate((last = screen())), what, { timeoutMs: 15_000, intervalMs: 30 });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nScreen:\n${last}`);
  }
  return last;
}

/** The status bar is the first line of the screen. */
const status = (s: string): string => s.split('\n')[0] ?? '';

describe.skipIf(!hasTmux)('the full-screen app in tmux', () => {
  let server: ScriptedServer;
  let tmp: string;
  let socketPath = '';

  beforeAll(async () => {
    server = await startScriptedServer();
    // 0: an autonomous first turn that reasons, replies and calls tools.
    server.push({
      kind: 'stream',
      reasoning: 'Someone left files here. Look at them.',
      content: `Let me look around. 你好！\n[TOOL] ls(".") [/TOOL]\n${FILES.map((f) => `[TOOL] read("${f}") [/TOOL]`).join('\n')}`,
      chunkDelayMs: 5,
    });
    // 1: a long, slow reply that the user interrupts with a keypress.
    server.push({
      kind: 'stream',
      content: Array.from({ length: 1000 }, () => 'zzz '),
      chunkDelayMs: 20,
    });
    // 2: the answer to the typed message, in Markdown; no [WAIT], so it would go on thinking.
    server.push({
      kind: 'stream',
      content: [
        '## Plan\n\n**Understood**, carrying ',
        'on with `ls`:\n\n- first *item*\n\n| k | v |\n|---|---|\n| a | 1 |\n\n',
        '```js\nlet x = 1;\n```\n',
      ],
      chunkDelayMs: 5,
    });
    server.setDefault({ kind: 'stream', content: 'Looked again, nothing new. [WAIT]' });

    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-e2e-'));
    fs.mkdirSync(path.join(tmp, 'home'));
    fs.mkdirSync(path.join(tmp, 'ws'));
    for (const f of FILES) fs.writeFileSync(path.join(tmp, 'ws', f), `contents of ${f}\n`);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tmp,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      COGITO_HOME: path.join(tmp, 'home'),
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: SECRET,
      COGITO_MODEL: 'scripted-model',
    };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    const run = `clear; echo BEFORE-COGITO-MARKER; cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(path.join(tmp, 'ws'))} --think-interval ${INTERVAL_MS}; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'app', run);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('streams, runs tools, is interrupted, listens, pauses, scrolls, expands and quits', async () => {
    // Reasoning and the reply stream into their panes; the calls appear in the tool log.
    // Each result has its own row under the reply, so the reply's first line may have
    // scrolled off the conversation pane by the time the last result is in.
    await waitForScreen((x) => x.includes('Let me look around.'), 'the first reply');
    let s = await waitForScreen((x) => x.includes('✓ read("e.txt")'), 'its tool calls');
    expect(s).toContain('Someone left files here.');
    expect(s).not.toContain('BEFORE-COGITO-MARKER');
    expect(s).not.toContain(SECRET);

    // A keypress mid-stream closes the connection and hands the floor to the user.
    await waitForScreen((x) => x.includes('zzz zzz zzz'), 'the slow reply streaming');
    keys('-l', 'h');
    const closed = await server.waitForClose(1, 5000);
    expect(closed.completed).toBe(false);
    s = await waitForScreen(
      (x) => status(x).includes('Your turn'),
      'AWAITING_INPUT in the status bar',
    );

    // The key that interrupted is the first character of the message; it is sent on Enter.
    keys('-l', 'ello agent');
    await waitForScreen((x) => x.includes('› hello agent'), 'the typed message');
    keys('Enter');
    const sent = await server.waitForRequest(2, 5000);
    const last = sent.body.messages.at(-1) as { role: string; content: string };
    expect(last).toEqual({ role: 'user', content: 'hello agent' });
    s = await waitForScreen((x) => x.includes('let x = 1;'), 'the answer');
    // Rendered as Markdown: the text without its markers.
    expect(s).toContain('Understood, carrying on with ls:');
    expect(s).toContain('• first item');
    expect(s).toMatch(/a +│ 1/);
    for (const raw of ['**', '```', '`ls`', '## Plan', '|---|', '*item*'])
      expect(s).not.toContain(raw);

    // Ctrl+P pauses: no request arrives during three think intervals; Ctrl+P resumes.
    keys('C-p');
    await waitForScreen((x) => status(x).includes('Paused'), 'the paused status');
    const count = server.requests.length;
    const pausedAt = Date.now();
    await waitFor(() => Date.now() - pausedAt >= 3 * INTERVAL_MS + 200, 'three intervals', {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    expect(server.requests.length).toBe(count);
    keys('C-p');
    await server.waitForRequest(count, 5000);
    await waitForScreen(
      (x) => x.includes('Looked again, nothing new.') && status(x).includes('Your turn'),
      'the resumed turn',
    );

    // The tool log takes focus, scrolls to its first entry and expands it.
    // (One key per send: a terminal delivers keys sent together as one chunk.)
    for (const pane of ['Conversation', 'Reasoning', 'Tools']) {
      keys('Tab');
      await waitForScreen((x) => x.includes(`━━ ${pane}`), `focus on ${pane}`);
    }
    keys('Home');
    s = await waitForScreen((x) => / 1\/6 /.test(x), 'the first entry selected');
    keys('Enter');
    s = await waitForScreen(
      (x) =>
        x.includes('ls(".")') &&
        FILES.every((f) => x.includes(f)) &&
        !x.includes('── Conversation'),
      'the expanded entry',
    );
    keys('Escape');
    await waitForScreen(
      (x) => x.includes('── Conversation') || x.includes('━━ Conversation'),
      'the detail closed',
    );

    // A small terminal still works.
    tmux('resize-window', '-t', 'app', '-x', '40', '-y', '12');
    s = await waitForScreen(
      (x) => x.trimEnd().split('\n').length <= 12 && status(x).length > 0 && !x.includes('Tools'),
      'the small layout',
    );
    for (const line of s.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    tmux('resize-window', '-t', 'app', '-x', '100', '-y', '30');

    // Quit restores the normal screen: the shell's earlier output is back, and the exit code is 0.
    keys('C-c');
    s = await waitForScreen((x) => x.includes('EXIT=0'), 'the exit');
    expect(s).toContain('BEFORE-COGITO-MARKER');
    expect(s).not.toContain('Let me look around.');
  }, 90_000);
});
