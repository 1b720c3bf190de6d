import { afterEach, describe, expect, test, vi } from 'vitest';
import { makeMessage, type HistoryMessage } from '../../src/core/messages.js';
import { bottomWindow, type Row } from '../../components/panes/rows.js';
import { agentRows, buildBlocks } from '../../components/panes/conversation.js';
import { LiveRows } from '../../components/panes/liveRows.js';
import { anchorOffset } from '../../components/panes/scrollAnchor.js';
import { LineWrap } from '../../components/text/lineWrap.js';
import { displayWidth } from '../../components/text/wrap.js';
import { partsOfText, replyMessage, replyUpdates, liveOf } from '../helpers/replyParts.js';
import { createFakeController, type FakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;

/** The body rows of a pane: the lines between its title rule and the next rule. */
const paneBody = (f: string, title: string): string[] => {
  const lines = f.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^[─━]{2} ${title} `).test(l));
  const end = lines.findIndex((l, i) => i > at && /^[─━]{2} /.test(l));
  return lines.slice(at + 1, end);
};
const scrolledBy = (f: string, title: string): number | undefined => {
  const rule = f.split('\n').find((l) => new RegExp(`^[─━]{2} ${title} `).test(l)) ?? '';
  const m = /↑(\d+)/.exec(rule);
  return m ? Number(m[1]) : undefined;
};
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const say = (
  c: FakeController,
  role: HistoryMessage['role'],
  content: string,
  extra: Partial<HistoryMessage> = {},
): void =>
  c.emit({
    type: 'message_added',
    // A reply carries its parts, as the turn saves it.
    message:
      role === 'assistant' ? replyMessage(content, extra) : makeMessage(role, content, extra),
  });

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
    expect(lines[at('Half a thou')]!.trimEnd()).toBe('◆ Half a thou  ⏎ interrupted');
    expect(at('What is in')).toBeLessThan(at('Which one'));
  });

  test("an interrupted marker shares its reply's last row, so it never heads the pane alone", () => {
    const long = 'word '.repeat(40).trim();
    for (const content of ['', 'short', long]) {
      const rows = agentRows(partsOfText(content), 30, { lang: 'en', interrupted: true });
      const last = rows[rows.length - 1]!;
      expect(last.text.endsWith('⏎ interrupted')).toBe(true);
      // The marker row carries reply text too (or the reply's head): it is never alone.
      expect(last.text.replace('⏎ interrupted', '').trim()).not.toBe('');
      for (const r of rows) expect(displayWidth(r.text)).toBeLessThanOrEqual(30);
    }
  });

  test('an autonomous reply is headed by a dim line with its cycle number and time', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const at = new Date(2026, 0, 2, 9, 5).getTime();
    say(c, 'user', 'hi', { at: at - 60_000 });
    say(c, 'assistant', 'Hello.', { at: at - 50_000 });
    say(c, 'assistant', 'I looked around.', { at, cycle: 3 });
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('I looked around.'));
    const lines = f.split('\n').map((l) => l.trimEnd());
    const at3 = lines.findIndex((l) => l.includes('I looked around.'));
    expect(lines[at3 - 1]).toBe('  cycle 3 · 09:05');
    expect(lines[at3 - 2]).toBe('');
    expect(lines[at3 - 3]).toBe('◆ Hello.');
  });

  test('streams the live reply below the history, with a cursor', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    say(c, 'user', 'hello');
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    const update = replyUpdates();
    for (const part of ['Hel', 'lo ', 'there']) c.emit(update(part));
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

  test('scrolled up, the view stays on the same lines while a reply streams in below', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    for (let i = 1; i <= 40; i++) say(c, 'assistant', `message number ${i}`);
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    const update = replyUpdates();
    c.emit(update('live line 1'));
    await h.waitFor((x) => x.includes('live line 1▍'));
    h.press(KEY.pgUp);
    let f = await h.waitFor((x) => scrolledBy(x, 'Conversation') !== undefined);
    const offset = scrolledBy(f, 'Conversation')!;
    const body = paneBody(f, 'Conversation');
    expect(body.join('\n')).toContain('message number');
    c.emit(update('\nlive line 2\nlive line 3\nlive line 4'));
    f = await h.waitFor((x) => scrolledBy(x, 'Conversation') === offset + 3);
    expect(paneBody(f, 'Conversation')).toEqual(body);
    // The reply ends: the live rows become a message of the same rows; nothing moves.
    say(c, 'assistant', 'live line 1\nlive line 2\nlive line 3\nlive line 4');
    c.emit({ type: 'notice', level: 'info', text: 'one more line below' });
    f = await h.waitFor((x) => scrolledBy(x, 'Conversation') === offset + 4);
    expect(paneBody(f, 'Conversation')).toEqual(body);
    // Scroll keys move from where the view is now.
    h.press(KEY.pgDn);
    const page = body.length - 1;
    f = await h.waitFor((x) => scrolledBy(x, 'Conversation') !== offset + 4);
    expect(scrolledBy(f, 'Conversation') ?? 0).toBe(Math.max(0, offset + 4 - page));
    // At the bottom it follows new rows again.
    h.press(KEY.tab); // the conversation: End goes to its bottom
    await h.waitFor((x) => x.includes('━━ Conversation'));
    h.press(KEY.end);
    await h.waitFor((x) => scrolledBy(x, 'Conversation') === undefined);
    say(c, 'assistant', 'the newest');
    await h.waitFor((x) => paneBody(x, 'Conversation').at(-1)!.includes('◆ the newest'));
  });

  test('the offset anchor: grows with appended rows, restarts on a key, rebases on resize', () => {
    let below = 0;
    const input = (offset: number, mark: number, width = 80) => ({
      offset,
      mark,
      width,
      snapshot: () => below,
      grownSince: (snap: number) => below - snap,
    });
    let r = anchorOffset(undefined, input(5, 1));
    expect(r.value).toBe(5);
    below = 3;
    r = anchorOffset(r.state, input(5, 1));
    expect(r.value).toBe(8);
    // Following the bottom (0) stays at 0.
    let z = anchorOffset(undefined, input(0, 2));
    below = 10;
    z = anchorOffset(z.state, input(0, 2));
    expect(z.value).toBe(0);
    // A scroll key (a new mark) starts again from the offset it asked for.
    r = anchorOffset(r.state, input(6, 2));
    expect(r.value).toBe(6);
    below = 12;
    r = anchorOffset(r.state, input(6, 2));
    expect(r.value).toBe(8);
    // A resize keeps the position shown and measures growth from there.
    r = anchorOffset(r.state, input(6, 2, 60));
    expect(r.value).toBe(8);
    below = 13;
    r = anchorOffset(r.state, input(6, 2, 60));
    expect(r.value).toBe(9);
  });

  test('the streaming cursor never pushes a full row of CJK text past the width', () => {
    const width = 40;
    const full = '文'.repeat(19); // 38 columns + the 2-column prefix: exactly 40
    const rows = agentRows(partsOfText(full), width, { lang: 'en', cursor: true });
    for (const r of rows) expect(displayWidth(r.text)).toBeLessThanOrEqual(width);
    expect(rows.map((r) => r.text)).toEqual([`◆ ${full}`, '  ▍']);
    const short = agentRows(partsOfText('文文'), width, { lang: 'en', cursor: true });
    expect(short.map((r) => r.text)).toEqual(['◆ 文文▍']);
  });

  test('a streaming reply is drawn a tail at a time, with the same rows as a full render', () => {
    // Every grapheme wrapped goes through LineWrap.push, whoever wraps it: count them.
    const push = vi.spyOn(LineWrap.prototype, 'push');
    try {
      const live = new LiveRows();
      const zh = '这是一个很长的中文句子，用来检查在窄终端里按照显示宽度换行是否正确。';
      let text = '';
      let before = 0;
      let lexedBefore = 0;
      const perUpdate: number[] = [];
      const lexedPerUpdate: number[] = [];
      for (let i = 0; text.length < 20_000; i++) {
        text += i % 7 === 6 ? `${zh}\n` : zh;
        const rows = live.rows(text, liveOf(text), 80, 'en', true);
        perUpdate.push(push.mock.calls.length - before);
        lexedPerUpdate.push(live.work - lexedBefore);
        lexedBefore = live.work;
        if (i % 50 === 0) {
          push.mockClear();
          expect(rows).toEqual(agentRows(partsOfText(text), 80, { lang: 'en', cursor: true }));
          push.mockClear();
        }
        before = push.mock.calls.length;
      }
      // Each update lexes and wraps only the unfinished tail (at most a long paragraph's last
      // stretch), however long the reply has grown: 20K characters, never more than ~2K.
      expect(Math.max(...lexedPerUpdate)).toBeLessThanOrEqual(2 * 1024 + 2 * zh.length);
      expect(Math.max(...perUpdate)).toBeLessThanOrEqual(2 * 1024 + 2 * zh.length);
      // The same text again costs nothing.
      live.rows(text, liveOf(text), 80, 'en', true);
      expect(push.mock.calls.length).toBe(before);
    } finally {
      push.mockRestore();
    }
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

  test('scrolled up, the reasoning stays on the same lines while more streams in', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    const lines = Array.from({ length: 20 }, (_, i) => `thought ${i + 1}`).join('\n');
    c.emit({ type: 'reasoning_delta', turnId: 1, text: lines });
    await h.waitFor((x) => x.includes('thought 20'));
    h.press(KEY.tab, KEY.tab);
    await h.waitFor((x) => x.includes('━━ Reasoning'));
    h.press(KEY.up, KEY.up);
    let f = await h.waitFor((x) => scrolledBy(x, 'Reasoning') === 2);
    const body = paneBody(f, 'Reasoning');
    expect(body.join('\n')).not.toContain('thought 20');
    c.emit({ type: 'reasoning_delta', turnId: 1, text: '\nthought 21\nthought 22' });
    f = await h.waitFor((x) => scrolledBy(x, 'Reasoning') === 4);
    expect(paneBody(f, 'Reasoning')).toEqual(body);
    h.press(KEY.down);
    f = await h.waitFor((x) => scrolledBy(x, 'Reasoning') === 3);
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
