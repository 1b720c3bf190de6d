import { afterEach, describe, expect, test } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { mouseReports, parseMouse } from '../../components/keys/mouse.js';
import { computeLayout, paneAt } from '../../components/layout.js';
import { createFakeController, type FakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const wheel = (dir: 'up' | 'down', row: number, col = 10): string =>
  `\x1b[<${dir === 'up' ? 64 : 65};${col};${row}M`;
const scrolled = (f: string, title: string): string | undefined =>
  /↑(\d+)/.exec(f.split('\n').find((l) => l.includes(` ${title} `)) ?? '')?.[1];

function longConversation(c: FakeController): void {
  for (let i = 0; i < 40; i++)
    c.emit({ type: 'message_added', message: makeMessage('assistant', `reply number ${i}`) });
}

describe('mouse reports', () => {
  test('wheel turns are read with their row; clicks are recognised and carry no wheel', () => {
    expect(parseMouse('\x1b[<64;5;12M')).toEqual({ wheel: 'up', column: 5, row: 12 });
    expect(parseMouse('\x1b[<65;5;12M')?.wheel).toBe('down');
    // Ctrl held (bit 16) is still the wheel.
    expect(parseMouse('\x1b[<80;1;1M')?.wheel).toBe('up');
    expect(parseMouse('\x1b[<0;5;12M')?.wheel).toBeUndefined();
    expect(parseMouse('\x1b[<0;5;12m')?.wheel).toBeUndefined();
    expect(parseMouse('hello')).toBeUndefined();
    expect(mouseReports(wheel('up', 3) + wheel('up', 3))).toHaveLength(2);
    expect(mouseReports(`${wheel('up', 3)}x`)).toBeUndefined();
  });

  test('the pane under a row follows the layout, top to bottom', () => {
    const l = computeLayout({
      columns: 100,
      rows: 30,
      inputLines: 1,
      statusMessage: false,
      approval: false,
    });
    expect(paneAt(l, 1, false)).toBeUndefined();
    expect(paneAt(l, 2, false)).toBe('reasoning');
    expect(paneAt(l, 2 + l.reasoning + 1, false)).toBe('reply');
    expect(paneAt(l, 2 + l.reasoning + 1 + l.reply + 1, false)).toBe('tools');
    expect(paneAt(l, l.height, false)).toBeUndefined();
    expect(paneAt(l, 2, true)).toBe('overlay');
  });
});

describe('the mouse wheel on screen', () => {
  test('scrolls the conversation when turned over it, three rows a notch', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    longConversation(c);
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('reply number 39'));
    const row = f.split('\n').findIndex((l) => l.includes('reply number 39')) + 1;
    h.press(wheel('up', row));
    await h.waitFor((x) => scrolled(x, 'Conversation') === '3');
    h.press(wheel('up', row));
    await h.waitFor((x) => scrolled(x, 'Conversation') === '6');
    h.press(wheel('down', row));
    const after = await h.waitFor((x) => scrolled(x, 'Conversation') === '3');
    // Nothing of the mouse report reached the input box.
    expect(after).not.toMatch(/\[<6[45]/);
  });

  test('over another pane it leaves the conversation where it is', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    longConversation(c);
    h = await renderApp({ c });
    await h.waitFor((x) => x.includes('reply number 39'));
    // Row 2 is the reasoning pane's title, row 1 the status bar.
    h.press(wheel('up', 1), wheel('up', 3));
    h.type('z');
    const f = await h.waitFor((x) => x.includes('› z'));
    expect(scrolled(f, 'Conversation')).toBeUndefined();
  });

  test('while thinking, a wheel turn is not a key: it does not interrupt', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    longConversation(c);
    h = await renderApp({ c });
    const f = await h.waitFor((x) => x.includes('reply number 39'));
    const row = f.split('\n').findIndex((l) => l.includes('reply number 39')) + 1;
    h.press(wheel('up', row));
    await h.waitFor((x) => scrolled(x, 'Conversation') === '3');
    expect(c.methods()).not.toContain('interrupt');
  });

  test('Ctrl+S asks the terminal to turn mouse reporting off and on', async () => {
    const calls: [boolean, boolean][] = [];
    h = await renderApp({ onMouse: (on: boolean, toggled: boolean) => calls.push([on, toggled]) });
    await h.waitFor((x) => x.includes('Your turn') || x.includes('Thinking'));
    expect(calls).toEqual([[true, false]]);
    h.press('\x13');
    h.press('\x13');
    await h.waitFor(() => calls.length === 3);
    expect(calls).toEqual([
      [true, false],
      [false, true],
      [true, true],
    ]);
    h.unmount();
    h = undefined;
    expect(calls[calls.length - 1]).toEqual([false, false]);
  });
});
