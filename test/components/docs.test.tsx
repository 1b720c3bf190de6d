/**
 * The README material: a text capture of the screen (docs/screen.txt) and the key table
 * (docs/KEYS.md), both generated from the real code. Run with UPDATE_DOCS=1 to rewrite them
 * after a deliberate change; otherwise the test fails when they drift.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { keysMarkdown } from '../../components/keys/keysMarkdown.js';
import { COMMANDS } from '../../src/commands/builtin.js';
import { commandsMarkdown } from '../../src/commands/table.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';
import { scriptedConversation } from '../helpers/scriptedConversation.js';

const docs = path.resolve(import.meta.dirname, '../../docs');
const update = process.env.UPDATE_DOCS === '1';

function checkDoc(name: string, content: string): void {
  const file = path.join(docs, name);
  if (update) {
    fs.mkdirSync(docs, { recursive: true });
    fs.writeFileSync(file, content);
  }
  expect(
    fs.existsSync(file),
    `${name} is missing: run UPDATE_DOCS=1 npx vitest run test/components/docs.test.tsx`,
  ).toBe(true);
  expect(fs.readFileSync(file, 'utf8')).toBe(content);
}

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe('README material', () => {
  test('docs/screen.txt: the screen at 100×30 with a scripted conversation', async () => {
    h = await renderApp({
      c: scriptedConversation(),
      columns: 100,
      rows: 30,
      workspace: path.join(os.homedir(), 'notes'),
    });
    h.type('Yes, and add the budget');
    const frame = await h.waitFor(
      (f) => f.includes('add the budget') && f.includes('read("kyoto-2024.md")'),
    );
    const text = `${frame
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')}\n`;
    expect(text.split('\n').length - 1).toBe(29);
    checkDoc('screen.txt', text);
  });

  test('docs/KEYS.md: the key table', () => {
    const md = [
      '# Keys',
      '',
      'Generated from `components/keys/bindings.ts` (the one keybinding table); the first row',
      'that matches wins. Press `F1` in the app (or `?` with an empty input when it is waiting',
      'for you or paused) for the same list.',
      '',
      keysMarkdown('en'),
      '',
      '## Slash commands',
      '',
      'Generated from the command table (`src/commands/builtin.ts`, rows by',
      '`src/commands/table.ts`); `/help` and the help overlay show the same rows.',
      '',
      commandsMarkdown(COMMANDS, 'en'),
      '',
      '## Talking without stopping it',
      '',
      'Any key stops the agent and listens; `>` on an empty input line does not: it opens the',
      'queue line, Enter queues the message (shown on the input title as queued) and the agent',
      'takes it when the turn in flight ends. `↑`/`↓` on the queue line pick a queued message to',
      'edit, `Ctrl+X` drops it. `cogito send "…"` from another shell uses the same queue.',
      '',
      '`Tab` on the queue line steers instead: the message is read at the next tool call, as an',
      'amendment to the task in flight. The calls of the reply not yet started come back to the',
      'model as "deferred by the user" (the tool log shows them skipped), calls already run keep',
      'their results, and the same turn goes on with your words. A turn that ends before its',
      'next tool call answers the message in the next turn, like a queued one. Tab, because',
      'every terminal and tmux deliver it (Ctrl+Enter reaches most as a plain Enter).',
      '`cogito send --steer "…"` steers from another shell.',
      '',
      '## Pastes',
      '',
      'A paste of more than 10 lines or 1,000 characters (terminals mark pastes; Cogito turns',
      'that on) shows in the input as one placeholder, `[pasted 1,100 lines]`, and the whole text',
      'is what is sent. `Backspace` right after a placeholder deletes the paste whole; `Ctrl+O`',
      'opens the placeholder at the cursor (or the last one) back into its text. Several pastes',
      'in one message keep their own placeholders (`#2` tells two of the same size apart).',
      '',
      '## Files with @',
      '',
      'Type `@` and a few letters of a file or folder in the workspace: a list of up to 8',
      "matching paths (the nearest and shortest first; ignored, version-control and Cogito's own",
      'places left out) opens under the input. `↑`/`↓` choose, `Tab` or `Enter` put the chosen',
      'path in the message (a folder goes on listing what is inside it), `Esc` closes the list',
      'and leaves the text as typed; with the list closed, `Enter` sends as always. Each',
      '`@path` in a sent message attaches that file (read as the `read` tool reads it, at most',
      '10 files); the conversation shows it collapsed, `attached notes/a.md (2.1 KB)`.',
      '',
      '## From another shell',
      '',
      '| Command | What it does |',
      '|---|---|',
      "| `cogito start` | Start the folder's agent in the background (no screen) |",
      '| `cogito` | Attach a screen to it (`Ctrl+D` or `/detach` leaves it running) |',
      '| `cogito status [--json]` | Every running agent as its status bar says it (`Resting · next look in 4m`), local times, rounded tokens |',
      '| `cogito send "TEXT" [--steer] [--wait]` | Queue a message (`--steer`: read at the next tool call); `--wait` prints the answer |',
      '| `cogito approve [--always]` / `cogito deny` | Show the approval card waiting and answer it |',
      "| `cogito stop [--all]` | Stop the folder's agent (or all of them) |",
      '',
      '## Notifications',
      '',
      'A `[WAIT]` question, an approval waiting, a pause for a budget, errors or the loop guard,',
      "a reminder and an agent that stopped on an error notify you: the terminal's own",
      "notification (OSC 9 / OSC 777, else a bell) when the screen's terminal lost focus, the",
      "desktop's (`notify-send`, `osascript`) or `notify.command` when no screen looks. Nothing",
      'while you look at the screen; once per event; per kind and with quiet hours in',
      '`config.json` (`notify`): [NOTIFY.md](NOTIFY.md).',
      '',
    ].join('\n');
    checkDoc('KEYS.md', md);
  });

  test("README.md: its command table is the command table's", () => {
    const file = path.resolve(docs, '../README.md');
    const readme = fs.readFileSync(file, 'utf8');
    const start = '<!-- commands: generated from src/commands, UPDATE_DOCS=1 rewrites it -->';
    const end = '<!-- /commands -->';
    const from = readme.indexOf(start);
    const to = readme.indexOf(end);
    expect(from, `README.md lacks the line ${start}`).toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const table = `\n${commandsMarkdown(COMMANDS, 'en')}\n`;
    const next = readme.slice(0, from + start.length) + table + readme.slice(to);
    if (update) fs.writeFileSync(file, next);
    expect(readme.slice(from + start.length, to)).toBe(table);
  });
});
