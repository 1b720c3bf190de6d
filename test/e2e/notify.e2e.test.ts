/**
 * Notifications from the real program in a real terminal: tmux runs `bin/cogito.ts` against
 * the scripted server, `pipe-pane` records every byte the program writes, and the terminal's
 * focus reports are typed as raw bytes. Skipped without tmux, failed under CI without it
 * (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxPane } from '../helpers/tmuxPane.js';
import { waitUntil } from '../helpers/waitFor.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-notify-e2e-${process.pid}`;
const { tmux, screen, keys } = tmuxPane(socket, 'app');
const quote = shellQuote;
const osc9 = (text: string): string => `\x1b]9;${text}\x07`;

describeWithTmux('notifications from the full-screen app in tmux', () => {
  let server: ScriptedServer;
  let tmp: string;
  let written: string;
  let socketPath = '';
  const output = (): string => fs.readFileSync(written, 'latin1');

  function waitFor(check: () => boolean, what: string): Promise<true> {
    return waitUntil(() => check(), what, {
      timeoutMs: 30_000,
      intervalMs: 30,
      detail: () => `Screen:\n${screen()}\nWritten:\n${JSON.stringify(output().slice(-400))}`,
    });
  }

  beforeAll(async () => {
    server = await startScriptedServer();
    server.push(
      { kind: 'stream', content: 'Which file first? [WAIT]' },
      { kind: 'stream', content: 'Unfocused question? [WAIT]' },
      { kind: 'stream', content: 'Focused question? [WAIT]' },
    );
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-notify-e2e-'));
    fs.mkdirSync(path.join(tmp, 'home'));
    fs.mkdirSync(path.join(tmp, 'ws'));
    written = path.join(tmp, 'written.bin');
    const go = path.join(tmp, 'go');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tmp,
      TERM: 'xterm-256color',
      // An iTerm2 outside tmux, as far as the program can tell: OSC 9.
      TERM_PROGRAM: 'iTerm.app',
      LANG: 'C.UTF-8',
      COGITO_HOME: path.join(tmp, 'home'),
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-e2e-notify',
      COGITO_MODEL: 'scripted-model',
    };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    // The program starts once pipe-pane records, so its first bytes are seen too.
    const run = `until [ -e ${quote(go)} ]; do sleep 0.05; done; cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(path.join(tmp, 'ws'))}; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'app', run);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
    tmux('pipe-pane', '-o', '-t', 'app', `cat >> ${quote(written)}`);
    fs.writeFileSync(go, '');
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('OSC 9 once after focus-out, none while focused; reporting on and off', async () => {
    await waitFor(() => screen().includes('Which file first?'), 'the first reply');
    await waitFor(() => screen().split('\n')[0]!.includes('Your turn'), 'waiting for the user');
    expect(output()).toContain('\x1b[?1004h');
    // Focused (nothing reported yet): the first [WAIT] called nobody.
    expect(output()).not.toContain(osc9('Which file first?'));

    keys('-H', '1b', '5b', '4f'); // ESC [ O: the window lost focus
    keys('Enter'); // an empty message: look again now
    await waitFor(() => output().includes(osc9('Unfocused question?')), 'the OSC 9');
    // The focus report was not typed into the message line.
    expect(screen()).not.toContain('[O');

    keys('-H', '1b', '5b', '49'); // ESC [ I: focus is back
    keys('Enter');
    await waitFor(() => screen().includes('Focused question?'), 'the third reply');
    await waitFor(() => screen().split('\n')[0]!.includes('Your turn'), 'waiting again');
    keys('C-c');
    await waitFor(() => screen().includes('EXIT=0'), 'the program to quit');

    const out = output();
    expect(out.split(osc9('Unfocused question?')).length - 1).toBe(1);
    expect(out).not.toContain(osc9('Focused question?'));
    expect(out).toContain('\x1b[?1004l');
  }, 120_000);
});
