import { afterEach, describe, expect, test } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { computeLayout, focusables } from '../../components/layout.js';
import { displayWidth } from '../../components/text/wrap.js';
import {
  askApproval,
  createFakeController,
  toolEntry,
  type FakeController,
} from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { replyMessage } from '../helpers/replyParts.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

function busyController(): FakeController {
  const c = createFakeController({
    machine: 'AWAITING_INPUT',
    cycle: 12,
    contextTokens: 48_000,
    sessionTokens: 310_000,
  });
  for (let i = 0; i < 30; i++) {
    c.emit({
      type: 'message_added',
      message: makeMessage('user', `question ${i} 关于文件夹的问题`),
    });
    c.emit({
      type: 'message_added',
      message: replyMessage(`answer ${i}: ${'long text '.repeat(20)}\n[TOOL] ls(".") [/TOOL]`, {
        reasoning: 'why '.repeat(50),
      }),
    });
    c.emit({ type: 'tool_end', entry: toolEntry() });
  }
  c.emit({ type: 'notice', level: 'warn', text: 'a notice' });
  return c;
}

/** Every line fits the width, and the frame is shorter than the terminal. */
function expectFits(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows - 1);
  for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(columns);
}

describe('layout', () => {
  test('big terminals get every pane; small ones keep status, conversation and input', () => {
    const big = computeLayout({
      columns: 100,
      rows: 30,
      inputLines: 1,
      statusMessage: false,
      approval: false,
    });
    expect(big.height).toBe(29);
    expect(big.reasoning).toBeGreaterThan(0);
    expect(big.tools).toBeGreaterThan(0);
    expect(focusables(big)).toEqual(['input', 'reply', 'reasoning', 'tools']);
    const small = computeLayout({
      columns: 40,
      rows: 12,
      inputLines: 1,
      statusMessage: true,
      approval: false,
    });
    expect([small.reasoning, small.tools]).toEqual([0, 0]);
    expect(small.reply).toBeGreaterThanOrEqual(4);
    expect(focusables(small)).toEqual(['input', 'reply']);
    const tiny = computeLayout({
      columns: 20,
      rows: 6,
      inputLines: 5,
      statusMessage: true,
      approval: true,
    });
    expect(tiny.titles).toBe(false);
    expect(tiny.hint).toBe(false);
    expect(tiny.status + tiny.panes + tiny.approval + tiny.input).toBeLessThanOrEqual(5);
  });

  test('the rows always add up to less than the terminal', () => {
    for (let rows = 1; rows <= 60; rows++) {
      for (const columns of [10, 40, 100]) {
        for (const approval of [false, true]) {
          const l = computeLayout({ columns, rows, inputLines: 4, statusMessage: true, approval });
          const titles = l.titles ? [l.reasoning, l.reply, l.tools].filter((n) => n > 0).length : 0;
          const used =
            l.status +
            l.reasoning +
            l.reply +
            l.tools +
            titles +
            l.approval +
            l.input +
            (l.inputRule ? 1 : 0) +
            (l.hint ? 1 : 0);
          expect(used).toBe(
            l.status + l.panes + l.approval + l.input + (l.inputRule ? 1 : 0) + (l.hint ? 1 : 0),
          );
          expect(used).toBeLessThanOrEqual(Math.max(1, rows - 1));
        }
      }
    }
  });
});

describe('sizes', () => {
  test('100×30 and 80×24 fit', async () => {
    for (const [columns, rows] of [
      [100, 30],
      [80, 24],
    ] as const) {
      h = await renderApp({ c: busyController(), columns, rows });
      expectFits(await h.waitFor((f) => f.includes('Tools')), columns, rows);
      h.unmount();
      h = undefined;
    }
  });

  test('40×12 keeps status, conversation and input, and hides the side panes', async () => {
    h = await renderApp({ c: busyController(), columns: 40, rows: 12 });
    const f = await h.waitFor((x) => x.includes('Conversation'));
    expectFits(f, 40, 12);
    expect(f).toContain('● Your turn');
    expect(f).not.toContain('Reasoning');
    expect(f).not.toContain('Tools');
    expect(f).toContain('⚙ ls(".")');
    // Tab cycles only what is on screen.
    h.press(KEY.tab);
    await h.waitFor((x) => x.includes('━━ Conversation'));
    h.press(KEY.tab);
    await h.waitFor((x) => x.includes('━━ Input'));
    h.press(KEY.f1);
    expectFits(await h.waitFor((x) => x.includes('Help')), 40, 12);
  });

  test('20×6 does not crash, and still takes keys', async () => {
    const c = busyController();
    h = await renderApp({ c, columns: 20, rows: 6 });
    const f = await h.waitFor((x) => x.includes('●'));
    expectFits(f, 20, 6);
    h.type('hi');
    await h.waitFor((x) => x.includes('› hi'));
    h.press(KEY.enter);
    await h.waitForCalls(1);
    askApproval(c);
    expectFits(await h.waitFor((x) => x.includes('Allow delete?')), 20, 6);
    h.press(KEY.f1);
    h.press(KEY.esc);
    expectFits(h.frame(), 20, 6);
  });

  test('even 10×3 and 5×2 render something without throwing', async () => {
    for (const [columns, rows] of [
      [10, 3],
      [5, 2],
    ] as const) {
      h = await renderApp({ c: busyController(), columns, rows });
      await h.waitFor((x) => x.trim().length > 0);
      h.unmount();
      h = undefined;
    }
  });

  test('Chinese text wraps by display width', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const zh =
      '这是一个很长的中文句子，用来检查在窄终端里按照显示宽度换行是否正确，每个汉字占两列。';
    c.emit({ type: 'message_added', message: replyMessage(zh) });
    h = await renderApp({ c, columns: 40, rows: 14 });
    const f = await h.waitFor((x) => x.includes('这是'));
    expectFits(f, 40, 14);
    const rows = f.split('\n').filter((l) => /[\u4e00-\u9fff]/.test(l));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((r) => r.slice(2).trimEnd()).join('')).toBe(zh);
  });

  test('a resize reflows the panes', async () => {
    h = await renderApp({ c: busyController(), columns: 100, rows: 30 });
    await h.waitFor((x) => x.includes('Tools'));
    h.rerender({ columns: 40, rows: 12 });
    expectFits(await h.waitFor((x) => !x.includes('Tools')), 40, 12);
    h.rerender({ columns: 100, rows: 30 });
    expectFits(await h.waitFor((x) => x.includes('Tools')), 100, 30);
  });
});
