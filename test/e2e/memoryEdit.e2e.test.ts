/**
 * `/memory edit` in a real terminal: tmux runs the screen against the scripted server with
 * $EDITOR set to a small script that appends a fact to the file it is given. The screen
 * hands the terminal to it and, once it exits, is drawn again whole (status bar and input box)
 * and says what changed; `/undo` takes the edit back. Skipped without tmux, failed under CI
 * without it (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatMemory, memoryPaths } from '../../src/knowledge/memoryFile.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxPane } from '../helpers/tmuxPane.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-memedit-e2e-${process.pid}`;
const { tmux, keys, waitForScreen } = tmuxPane(socket, 'app', {
  timeoutMs: 20_000,
  intervalMs: 30,
});
const quote = shellQuote;
/** The status bar is the first line of the screen. */
const status = (s: string): string => s.split('\n')[0] ?? '';

describeWithTmux('/memory edit in tmux', () => {
  let server: ScriptedServer;
  let tmp: string;
  let memoryFile: string;
  let socketPath = '';

  beforeAll(async () => {
    server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Nothing new. [WAIT]' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-memedit-e2e-'));
    const home = path.join(tmp, 'home');
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    memoryFile = memoryPaths(path.join(home, 'data'), fs.realpathSync(ws)).memory;
    fs.mkdirSync(path.dirname(memoryFile), { recursive: true });
    const facts = [
      'Drafts go in drafts/',
      'Reports in French',
      'Never touch invoices/',
      'Notes in notes/',
    ];
    fs.writeFileSync(
      memoryFile,
      formatMemory(
        'memory',
        facts.map((text) => ({ date: '2026-12-01', source: 'user turn', text })),
      ),
    );
    const editor = path.join(tmp, 'append-fact.sh');
    fs.writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' '- Added in the editor' >> "$1"\n`, {
      mode: 0o755,
    });
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tmp,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      EDITOR: editor,
      COGITO_HOME: home,
      COGITO_BASE_URL: server.url,
      COGITO_API_KEY: 'sk-memedit',
      COGITO_MODEL: 'scripted-model',
    };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    const run = `cd ${quote(root)} && env -i ${vars.join(' ')} node_modules/.bin/tsx bin/cogito.ts --workspace ${quote(ws)} --think-interval 600000; echo EXIT=$?; sleep 120`;
    tmux('-u', 'new-session', '-d', '-x', '100', '-y', '30', '-s', 'app', run);
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    if (socketPath) fs.rmSync(socketPath, { force: true });
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the editor gets the terminal; the screen comes back whole and says what changed; /undo takes it back', async () => {
    await waitForScreen((s) => status(s).includes('Your turn'), 'the first look done');
    keys('-l', '/memory edit');
    await waitForScreen((s) => s.includes('/memory edit'), 'the command typed');
    keys('Enter');
    const after = await waitForScreen(
      (s) => s.includes('Memory: 5 entries (was 4)'),
      'the count after the edit',
    );
    expect(fs.readFileSync(memoryFile, 'utf8')).toContain('- Added in the editor');
    // Drawn again whole: the status bar on top and the input box below.
    expect(status(after)).toContain('Your turn');
    expect(after).toContain('Type a message');

    keys('-l', '/undo');
    await waitForScreen((s) => /›\s*\/undo/.test(s), '/undo typed');
    keys('Enter');
    await waitForScreen(
      (s) => s.includes('Undone in memory: edited the memory file'),
      'the edit undone',
    );
    expect(fs.readFileSync(memoryFile, 'utf8')).not.toContain('Added in the editor');
  }, 60_000);
});
