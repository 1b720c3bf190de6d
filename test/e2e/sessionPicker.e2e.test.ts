/**
 * Sessions and scripts in a real terminal: tmux runs the screen against the scripted
 * server. The user talks in the screen and quits; a script's `cogito -p` runs in the folder;
 * the screen started again reopens the user's conversation, not the script's. `/resume` opens
 * the picker with the script's run under its own heading; `j` and Enter open it. Skipped
 * without tmux (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCogito } from '../helpers/cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxWindows } from '../helpers/tmuxPane.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-picker-${process.pid}`;

const { tmux, keys, waitForScreen } = tmuxWindows(socket, { timeoutMs: 20_000 });
const quote = shellQuote;

describeWithTmux('sessions, scripts and the picker in tmux', () => {
  let server: ScriptedServer;
  let tmp: string;
  let env: Record<string, string>;
  let ws: string;
  let socketPath = '';

  /** Starts the screen in a new tmux session `name`. */
  const startScreen = (name: string): void => {
    const vars = Object.entries({ ...env, TERM: 'xterm-256color', LANG: 'C.UTF-8', HOME: tmp });
    const line = vars.map(([k, v]) => `${k}=${quote(v)}`).join(' ');
    const run = `cd ${quote(root)} && env -i ${line} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(ws)} --think-interval 600000; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', name, run);
    socketPath ||= tmux('display-message', '-p', '#{socket_path}').trim();
  };
  const say = async (name: string, text: string): Promise<void> => {
    keys(name, '-l', text);
    await waitForScreen(name, (s) => s.includes(text), `"${text}" typed`);
    keys(name, 'Enter');
  };

  beforeAll(async () => {
    server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Noted. [WAIT]' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-picker-'));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    fs.mkdirSync(path.join(tmp, 'home'));
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      COGITO_HOME: path.join(tmp, 'home'),
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-picker',
      COGITO_MODEL: 'scripted-model',
    };
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a -p run leaves the screen its session; /resume picks the script run', async () => {
    // The user's conversation, then quit.
    startScreen('one');
    await waitForScreen('one', (s) => s.split('\n')[0]!.includes('Your turn'), 'the first look');
    await say('one', 'plan the trip to Lisbon');
    await waitForScreen('one', (s) => s.includes('Noted.'), 'the answer');
    await say('one', '/exit');
    await waitForScreen('one', (s) => s.includes('EXIT=0'), 'the exit');

    // A script's run in the same folder (a cron job).
    const script = runCogito(['-p', 'nightly report', '--workspace', ws], env);
    expect(await script.code, script.stderr()).toBe(0);

    // The screen again: the user's conversation, not the script's.
    startScreen('two');
    const back = await waitForScreen(
      'two',
      (s) => s.includes('plan the trip to Lisbon'),
      "the user's conversation resumed",
    );
    expect(back).not.toContain('nightly report');

    // The picker: the user's session, then the script's run under its own heading.
    await waitForScreen('two', (s) => s.split('\n')[0]!.includes('Your turn'), 'resting');
    await say('two', '/resume');
    const picker = await waitForScreen(
      'two',
      (s) => s.includes('Sessions of this folder (2)'),
      'the picker',
    );
    const lines = picker.split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.includes(s));
    expect(lines[at('plan the trip')]).toMatch(/› plan the trip to Lisbon .*open now/);
    expect(at('Script runs (cogito -p)')).toBeGreaterThan(at('plan the trip'));
    expect(at('nightly report')).toBeGreaterThan(at('Script runs (cogito -p)'));
    expect(picker).toMatch(/Enter open/);

    keys('two', 'j');
    await waitForScreen('two', (s) => /› nightly report/.test(s), 'the script run chosen');
    keys('two', 'Enter');
    const opened = await waitForScreen(
      'two',
      (s) => s.includes('Opened session') && s.includes('nightly report'),
      "the script's session opened",
    );
    expect(opened).not.toContain('Sessions of this folder (2)');
  }, 120_000);
});
