import { afterEach, describe, expect, test } from 'vitest';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

/** The first row of the input box: the line under the Input rule. */
const inputLine = (f: string): string => {
  const lines = f.split('\n');
  return lines[lines.findIndex((l) => / Input [─━]/.test(l)) + 1] ?? '';
};

const start = async (): Promise<Harness> => {
  h = await renderApp({ c: createFakeController({ machine: 'AWAITING_INPUT' }) });
  return h;
};

describe('the input box', () => {
  test('shows a placeholder that fits the state', async () => {
    const hh = await start();
    await hh.waitFor((f) => inputLine(f).includes('Type a message, or / for commands'));
    hh.press(KEY.ctrl('p'));
    await hh.waitFor((f) => inputLine(f).includes('Paused: type a message, or /resume'));
    hh.press(KEY.ctrl('p'));
    await hh.waitFor((f) => inputLine(f).includes('Press any key to interrupt and talk'));
  });

  test('Ctrl+A/E/U/W/K and the arrows edit the line', async () => {
    const hh = await start();
    const expectLine = (text: string): Promise<string> =>
      hh.waitFor((f) => inputLine(f).trimEnd() === `› ${text}`);
    hh.type('hello brave world');
    await expectLine('hello brave world');
    hh.press(KEY.ctrl('w')); // the word goes, the space before it stays (as in a shell)
    hh.type('new');
    await expectLine('hello brave new');
    hh.press(KEY.ctrl('a'));
    hh.type('>');
    await expectLine('>hello brave new');
    hh.press(KEY.ctrl('e'));
    hh.type('!');
    await expectLine('>hello brave new!');
    hh.press(KEY.left, KEY.left, KEY.left, KEY.left, KEY.ctrl('k'));
    hh.type('X');
    await expectLine('>hello brave X');
    hh.press(KEY.left, KEY.right, KEY.backspace, KEY.backspace);
    await expectLine('>hello brave');
    hh.press(KEY.left, KEY.left, KEY.left, KEY.ctrl('u'));
    await expectLine('ave');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: 'ave' }]);
  });

  test('↑/↓ recall earlier inputs and come back to the draft', async () => {
    const hh = await start();
    for (const msg of ['first message', 'second message']) {
      hh.type(msg);
      await hh.waitFor((f) => inputLine(f) === `› ${msg}`);
      hh.press(KEY.enter);
      // The fake agent answers and hands the floor back.
      await hh.waitFor((f) => inputLine(f).includes('Press any key'));
      hh.c.move('WAIT');
    }
    hh.type('draft');
    await hh.waitFor((f) => inputLine(f) === '› draft');
    hh.press(KEY.up);
    await hh.waitFor((f) => inputLine(f) === '› second message');
    hh.press(KEY.up);
    await hh.waitFor((f) => inputLine(f) === '› first message');
    hh.press(KEY.up);
    hh.press(KEY.down);
    await hh.waitFor((f) => inputLine(f) === '› second message');
    hh.press(KEY.down);
    await hh.waitFor((f) => inputLine(f) === '› draft');
  });

  test('a multi-line paste stays one message; Enter sends it whole', async () => {
    const hh = await start();
    // Bracketed paste (the terminal guard turns it on): the text comes between the markers.
    hh.press('\x1b[200~line one\r\nline two\rline three\x1b[201~');
    const f = await hh.waitFor((x) => x.includes('line three'));
    const lines = f.split('\n');
    const i = lines.findIndex((l) => l.startsWith('› line one'));
    expect(lines.slice(i, i + 3).map((l) => l.trimEnd())).toEqual([
      '› line one',
      '  line two',
      '  line three',
    ]);
    expect(hh.c.calls).toEqual([]);
    hh.press(KEY.altEnter);
    hh.type('four');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([
      { method: 'submit', text: 'line one\nline two\nline three\nfour' },
    ]);
  });

  test('keys that arrive in one read are each a key: Backspace deletes, Enter sends', async () => {
    const hh = await start();
    hh.press('helo\x7flo\r');
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: 'hello' }]);
    // The line is empty again: it shows the placeholder of the state the send moved to.
    await hh.waitFor((f) => inputLine(f) === '›  Press any key to interrupt and talk');
  });

  test('a paste spread over several reads, markers split too, is one text', async () => {
    const hh = await start();
    // Ink holds back a partial escape sequence until the rest arrives.
    hh.press('\x1b[20', '0~first\r', 'second\rth', 'ird\x1b[2', '01~');
    const f = await hh.waitFor((x) => x.includes('third'));
    expect(f).not.toContain('[200~');
    expect(f).not.toContain('[201~');
    expect(hh.c.calls).toEqual([]);
    // Keys after the paste are keys again.
    hh.press('!\r');
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: 'first\nsecond\nthird!' }]);
  });

  test('CJK text and emoji edit by whole characters', async () => {
    const hh = await start();
    hh.press('你好世界👍');
    await hh.waitFor((f) => inputLine(f) === '› 你好世界👍');
    hh.press(KEY.backspace);
    await hh.waitFor((f) => inputLine(f) === '› 你好世界');
    hh.press(KEY.left, KEY.backspace);
    await hh.waitFor((f) => inputLine(f) === '› 你好界');
  });

  test('a long line wraps inside the box', async () => {
    h = await renderApp({
      c: createFakeController({ machine: 'AWAITING_INPUT' }),
      columns: 30,
      rows: 24,
    });
    h.press('a'.repeat(60));
    const f = await h.waitFor((x) => x.includes('a'.repeat(27)));
    const rows = f.split('\n').filter((l) => /^(›| ) a+/.test(l));
    expect(rows.length).toBe(3);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(30);
  });
});
