/**
 * The real program in a real terminal: tmux runs `bin/cogito.ts` against the scripted
 * OpenAI-compatible server, and the test types keys and reads the screen. Skipped (with a
 * message) when tmux is not installed: `apt-get install tmux` to run it.
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

const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-t', 'app');
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function waitForScreen(predicate: (s: string) => boolean, what: string): Promise<string> {
  let last = '';
  try {
    await waitFor(() => predicate((last = screen())), what, { timeoutMs: 15_000, intervalMs: 50 });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nScreen:\n${last}`);
  }
  return last;
}

describe.skipIf(!hasTmux)('the full-screen app in tmux', () => {
  let server: ScriptedServer;
  let tmp: string;
  let socketPath = '';

  beforeAll(async () => {
    server = await startScriptedServer();
    server.push({
      kind: 'stream',
      reasoning: 'Someone is here. Greet them.',
      content: 'Hello from the scripted model. 你好！ [WAIT]',
      chunkDelayMs: 10,
    });
    server.setDefault({ kind: 'stream', content: 'Got it. [WAIT]' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-e2e-'));
    fs.mkdirSync(path.join(tmp, 'home'));
    fs.mkdirSync(path.join(tmp, 'ws'));
    fs.writeFileSync(path.join(tmp, 'ws', 'notes.md'), 'hello\n');
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
    const run = `cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(path.join(tmp, 'ws'))} --think-interval 200; echo EXIT=$?; sleep 60`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'app', run);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('talks, resizes and quits, restoring the terminal', async () => {
    let s = await waitForScreen(
      (x) => x.includes('Hello from the scripted model.') && x.includes('● Your turn'),
      'the first reply',
    );
    expect(s).toContain('Someone is here. Greet them.');
    expect(s).not.toContain(SECRET);

    tmux('send-keys', '-t', 'app', '-l', 'hi there');
    await waitForScreen((x) => x.includes('› hi there'), 'the typed text');
    tmux('send-keys', '-t', 'app', 'Enter');
    s = await waitForScreen((x) => x.includes('Got it.'), 'the answer');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('hi there');

    tmux('resize-window', '-t', 'app', '-x', '40', '-y', '12');
    s = await waitForScreen(
      (x) => !x.includes('Tools') && x.includes('Got it.'),
      'the small layout',
    );
    for (const line of s.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);

    tmux('send-keys', '-t', 'app', 'C-c');
    s = await waitForScreen((x) => x.includes('EXIT=0'), 'the exit');
    expect(s).not.toContain('● ');
  });
});
