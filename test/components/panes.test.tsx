import { afterEach, describe, expect, test } from 'vitest';
import { makeMessage, type HistoryMessage } from '../../src/core/messages.js';
import { bottomWindow, type Row } from '../../components/panes/rows.js';
import { buildBlocks } from '../../components/panes/conversation.js';
import { createFakeController, type FakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const say = (
  c: FakeController,
  role: HistoryMessage['role'],
  content: string,
  extra: Partial<HistoryMessage> = {},
): void => c.emit({ type: 'message_added', message: makeMessage(role, content, extra) });

describe('the reply pane', () => {
  test('shows the conversation with tool calls compacted, newest at the bottom', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    say(c, 'user', 'What is in my folder?');
    say(
      c,
      'assistant',
      'Let me look.\n[TOOL] ls(".") [/TOOL]\n[TOOL] read(\n  "notes.md"\n) [/TOOL]',
    );
    say(c, 'tool', 'ls(".") → notes.md, todo.txt\nmore lines');
    say(c, 'assistant', 'You have two files. Which one?\n[WAIT]');
    say(c, 'assistant', 'Half a thou', { interrupted: true });
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('Half a thou'));
    const lines = f.split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.includes(s));
    expect(lines[at('What is in my folder?')]).toBe('› What is in my folder?');
    expect(lines[at('Let me look.')]!.trimEnd()).toBe('◆ Let me look.');
    expect(lines[at('ls(".")')]!.trimEnd()).toBe('  ⚙ ls(".")');
    expect(lines[at('read(')]!.trimEnd()).toBe('  ⚙ read( "notes.md" )');
    expect(lines[at('↳')]!.trimEnd()).toBe('  ↳ ls(".") → notes.md, todo.txt …');
    expect(f).not.toContain('[WAIT]');
    expect(f).not.toContain('[TOOL]');
    expect(lines[at('Half a thou') + 1]!.trimEnd()).toBe('  ⏎ interrupted');
    expect(at('What is in')).toBeLessThan(at('Which one'));
  });

  test('streams the live reply below the history, with a cursor', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    say(c, 'user', 'hello');
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    for (const part of ['Hel', 'lo ', 'there'])
      c.emit({ type: 'text_delta', turnId: 1, text: part });
    await h.waitFor((x) => x.includes('◆ Hello there▍'));
    say(c, 'assistant', 'Hello there, friend.');
    const f = await h.waitFor((x) => x.includes('Hello there, friend.'));
    expect(f).not.toContain('▍');
  });

  test('notices appear in time order among the messages', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    c.emit({ type: 'message_added', message: makeMessage('user', 'first', { at: 1000 }) });
    c.emit({ type: 'message_added', message: makeMessage('user', 'second', { at: 3000 }) });
    const blocks = buildBlocks(c.store.getState().messages, [
      { id: 1, level: 'info', text: 'between', at: 2000 },
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(['message', 'notice', 'message']);
    c.emit({ type: 'notice', level: 'warn', text: 'model switched' });
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('· model switched'));
    expect(f.indexOf('second')).toBeLessThan(f.indexOf('· model switched'));
  });

  test('never passes escape sequences from model text to the terminal', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    say(c, 'assistant', 'clear\x1b[2J\x1b]0;pwned\x07 done');
    h = await renderApp({ c });
    const raw = await h.waitFor((x) => x.includes('clear done'));
    expect(raw).not.toContain('\x1b');
  });

  test('scrolls with PgUp/PgDn/Home/End and keeps its place on resize', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    for (let i = 1; i <= 60; i++) say(c, 'assistant', `message number ${i}`);
    h = await renderApp({ c });
    await h.waitFor((x) => x.includes('message number 60'));
    h.press(KEY.pgUp);
    let f = await h.waitFor((x) => /↑\d+/.test(x));
    expect(f).not.toContain('message number 60');
    const offset = /↑(\d+)/.exec(f)![1];
    h.rerender({ columns: 80 });
    f = await h.waitFor((x) => x.split('\n')[0]!.length <= 80 && x.includes(`↑${offset}`));
    h.press(KEY.tab); // focus the conversation: Home and End go to its ends
    await h.waitFor((x) => x.includes('━━ Conversation'));
    h.press(KEY.home);
    f = await h.waitFor((x) => x.includes('message number 1\n') || /message number 1\s*$/m.test(x));
    expect(f).toContain('◆ message number 1');
    h.press(KEY.end);
    await h.waitFor((x) => x.includes('message number 60') && !/↑\d+/.test(x));
    h.press(KEY.up);
    await h.waitFor((x) => x.includes('↑1'));
    h.press(KEY.down, KEY.down);
    await h.waitFor((x) => !/↑\d+/.test(x));
  });

  test('a long history only wraps what is on screen', () => {
    const blocks = Array.from({ length: 5000 }, (_, i) => i);
    let wrapped = 0;
    const rowsOf = (i: number): Row[] => {
      wrapped++;
      return [{ text: `row ${i}`, tone: 'plain' }];
    };
    const win = bottomWindow(blocks, rowsOf, 10, 0);
    expect(win.rows.map((r) => r.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `row ${4990 + i}`),
    );
    expect(wrapped).toBe(10);
    expect(win.maxOffset).toBe(Infinity);
    const top = bottomWindow(blocks.slice(0, 20), rowsOf, 10, 99);
    expect(top.offset).toBe(10);
    expect(top.rows[0]!.text).toBe('row 0');
  });
});

describe('the reasoning pane', () => {
  test('shows live reasoning while it streams, then the last reasoning', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    c.emit({ type: 'reasoning_delta', turnId: 1, text: 'The user asked about files; ' });
    c.emit({ type: 'reasoning_delta', turnId: 1, text: 'I should list them.' });
    await h.waitFor((x) => x.includes('The user asked about files; I should list them.'));
    say(c, 'assistant', 'Listing.', { reasoning: 'Final reasoning kept.' });
    const f = await h.waitFor((x) => x.includes('Final reasoning kept.'));
    const lines = f.split('\n');
    expect(lines.findIndex((l) => l.includes('Reasoning'))).toBeLessThan(
      lines.findIndex((l) => l.includes('Final reasoning')),
    );
  });

  test('scrolls when focused', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    say(c, 'assistant', 'ok', {
      reasoning: Array.from({ length: 30 }, (_, i) => `thought ${i + 1}`).join('\n'),
    });
    h = await renderApp({ c });
    await h.waitFor((x) => x.includes('thought 30'));
    h.press(KEY.tab, KEY.tab);
    await h.waitFor((x) => x.includes('━━ Reasoning'));
    h.press(KEY.home);
    const f = await h.waitFor((x) => x.includes('thought 1\n') || /thought 1\s*$/m.test(x));
    expect(f).not.toContain('thought 30');
  });
});
