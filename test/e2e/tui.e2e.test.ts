/**
 * The real program in a real terminal: tmux runs `bin/cogito.ts` against the scripted
 * OpenAI-compatible server, and the tests type keys and read the screen. One program is
 * started for the file and each test checks one behaviour on it, in order; when one fails,
 * the later ones fail at once naming it, rather than timing out on a screen they cannot
 * reach. Without tmux the file is skipped with the reason in its name, except under CI
 * (`.ci/run` sets CI and installs tmux), where a missing tmux is a failure
 * (test/helpers/tmuxGuard.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { displayWidth } from '../../components/text/wrap.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';
import { describeWithTmux } from '../helpers/tmuxGuard.js';
import { shellQuote, tmuxPane } from '../helpers/tmuxPane.js';
import { waitUntil } from '../helpers/waitFor.js';

const root = path.resolve(import.meta.dirname, '../..');
const socket = `cogito-e2e-${process.pid}`;
const SECRET = 'sk-e2e-never-shown-1234';
const INTERVAL_MS = 300;
const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

const { tmux, keys, waitForScreen } = tmuxPane(socket, 'app', {
  timeoutMs: 15_000,
  intervalMs: 30,
});
const quote = shellQuote;

/** The status bar is the first line of the screen. */
const status = (s: string): string => s.split('\n')[0] ?? '';

describeWithTmux('the full-screen app in tmux', () => {
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

  /** The first behaviour that failed: the ones after it depend on the screen it left. */
  let failed: string | undefined;
  const step = (name: string, run: () => Promise<void>, timeoutMs = 30_000): void => {
    test(
      name,
      async () => {
        if (failed !== undefined) expect.fail(`not run: "${failed}" failed first`);
        try {
          await run();
        } catch (err) {
          failed = name;
          throw err;
        }
      },
      timeoutMs,
    );
  };

  step('streams the reasoning and the reply, and runs its tool calls', async () => {
    // Each result has its own row under the reply, so the reply's first line may have
    // scrolled off the conversation pane by the time the last result is in.
    await waitForScreen((x) => x.includes('Let me look around.'), 'the first reply');
    const s = await waitForScreen((x) => x.includes('✓ read("e.txt")'), 'its tool calls');
    expect(s).toContain('Someone left files here.');
    expect(s).not.toContain('BEFORE-COGITO-MARKER');
    expect(s).not.toContain(SECRET);
  });

  step('a keypress mid-stream closes the connection and hands the floor to the user', async () => {
    await waitForScreen((x) => x.includes('zzz zzz zzz'), 'the slow reply streaming');
    keys('-l', 'h');
    const closed = await server.waitForClose(1, 5000);
    expect(closed.completed).toBe(false);
    await waitForScreen((x) => status(x).includes('Your turn'), 'AWAITING_INPUT in the status bar');
  });

  step('the key that interrupted starts the message, which Enter sends', async () => {
    keys('-l', 'ello agent');
    await waitForScreen((x) => x.includes('› hello agent'), 'the typed message');
    keys('Enter');
    const sent = await server.waitForRequest(2, 5000);
    const last = sent.body.messages.at(-1) as { role: string; content: string };
    expect(last).toEqual({ role: 'user', content: 'hello agent' });
  });

  step('the answer is rendered as Markdown, without its markers', async () => {
    const s = await waitForScreen((x) => x.includes('let x = 1;'), 'the answer');
    expect(s).toContain('Understood, carrying on with ls:');
    expect(s).toContain('• first item');
    expect(s).toMatch(/a +│ 1/);
    for (const raw of ['**', '```', '`ls`', '## Plan', '|---|', '*item*'])
      expect(s).not.toContain(raw);
  });

  step('Ctrl+P pauses (no request for three think intervals) and resumes', async () => {
    keys('C-p');
    const shown = await waitForScreen((x) => status(x).includes('Paused'), 'the paused status');
    // A look that started just before the key (the answer's turn ended one interval ago) may
    // still be on its way to the server, which runs in this process: let it land first.
    const settledAt = Date.now();
    await waitUntil(() => Date.now() - settledAt >= INTERVAL_MS, 'a look in flight to land', {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    expect(status(shown)).toContain('Paused');
    const count = server.requests.length;
    const pausedAt = Date.now();
    await waitUntil(() => Date.now() - pausedAt >= 3 * INTERVAL_MS + 200, 'three intervals', {
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
  });

  step('Tab moves the focus; the tool log scrolls to its first entry and expands it', async () => {
    // One key per send: a terminal delivers keys sent together as one chunk.
    for (const pane of ['Conversation', 'Reasoning', 'Tools']) {
      keys('Tab');
      await waitForScreen((x) => x.includes(`━━ ${pane}`), `focus on ${pane}`);
    }
    keys('Home');
    await waitForScreen((x) => / 1\/6 /.test(x), 'the first entry selected');
    keys('Enter');
    await waitForScreen(
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
  });

  step('a small terminal still fits: no line wider than the window', async () => {
    tmux('resize-window', '-t', 'app', '-x', '40', '-y', '12');
    const s = await waitForScreen(
      (x) => x.trimEnd().split('\n').length <= 12 && status(x).length > 0 && !x.includes('Tools'),
      'the small layout',
    );
    for (const line of s.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    tmux('resize-window', '-t', 'app', '-x', '100', '-y', '30');
    // The next steps read the full-width status bar: wait until the app has drawn it.
    await waitForScreen(
      (x) => x.split('\n').some((line) => displayWidth(line) > 40),
      'the layout at 100 columns again',
    );
  });

  step(
    'a typed request with a tool chain is one turn, and /undo takes all of it back',
    async () => {
      const before = server.requests.length;
      server.push(
        { kind: 'stream', content: '[TOOL] create("plan.md", "# Plan") [/TOOL]' },
        { kind: 'stream', content: '[TOOL] create("steps.md", "1. go") [/TOOL]' },
        { kind: 'stream', content: 'Both written. [WAIT]' },
      );
      keys('-l', 'write plan.md');
      keys('Enter');
      const s = await waitForScreen(
        (x) => x.includes('Both written.') && status(x).includes('Your turn'),
        'the end of the chain',
      );
      // Still the user's turn: no autonomous cycle was counted for its continuations.
      expect(status(s)).toMatch(/Cycle 0\//);
      expect(server.requests.length - before).toBe(3);
      // What follows the user's words (earlier autonomous turns keep their notes in place).
      for (const r of server.requests.slice(before)) {
        const sent = JSON.stringify(r.body.messages);
        const after = sent.slice(sent.lastIndexOf('write plan.md'));
        expect(after).not.toMatch(/Autonomous|user is not here/);
      }
      const ws = path.join(tmp, 'ws');
      expect(
        fs.existsSync(path.join(ws, 'plan.md')) && fs.existsSync(path.join(ws, 'steps.md')),
      ).toBe(true);
      keys('-l', '/undo');
      keys('Enter');
      await waitUntil(
        () => !fs.existsSync(path.join(ws, 'plan.md')) && !fs.existsSync(path.join(ws, 'steps.md')),
        'both files undone by one /undo',
        { timeoutMs: 10_000, intervalMs: 50 },
      );
    },
  );

  step('Ctrl+C quits with exit code 0 and restores the normal screen', async () => {
    keys('C-c');
    const s = await waitForScreen((x) => x.includes('EXIT=0'), 'the exit');
    expect(s).toContain('BEFORE-COGITO-MARKER');
    expect(s).not.toContain('Let me look around.');
  });
});
