/**
 * The key table, driven end to end: real key bytes into the rendered screen, a fake
 * controller recording what the screen asked of the agent, in each machine state.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFakeController, askApproval, toolEntry } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';
import { waitFor } from '../helpers/waitForFrame.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const start = async (
  machine: 'THINKING' | 'AWAITING_INPUT' | 'PAUSED' = 'THINKING',
): Promise<Harness> => {
  h = await renderApp({ c: createFakeController({ machine }) });
  return h;
};

describe('while THINKING', () => {
  test('Enter interrupts', async () => {
    const { c, press, waitForCalls } = await start();
    press(KEY.enter);
    await waitForCalls(1);
    expect(c.methods()).toEqual(['interrupt']);
    expect(c.store.getState().machine).toBe('AWAITING_INPUT');
  });

  test('Esc interrupts', async () => {
    const { c, press, waitForCalls } = await start();
    press(KEY.esc);
    await waitForCalls(1);
    expect(c.methods()).toEqual(['interrupt']);
  });

  test('a typed key interrupts and becomes the first character of the message', async () => {
    const { c, type, press, waitFor: wf, waitForCalls } = await start();
    type('hello');
    await wf((f) => f.includes('› hello'));
    press(KEY.enter);
    await waitForCalls(2);
    expect(c.calls).toEqual([{ method: 'interrupt' }, { method: 'submit', text: 'hello' }]);
  });

  test('? interrupts and is typed like any printable key (the help is F1 here)', async () => {
    const { c, press, waitFor: wf, waitForCalls } = await start();
    press('?');
    await waitForCalls(1);
    expect(c.methods()).toEqual(['interrupt']);
    const f = await wf((x) => x.includes('› ?'));
    expect(f).not.toContain('Help: keys and commands');
  });

  test('Ctrl+C interrupts while busy; a second Ctrl+C within 2 s quits', async () => {
    const hh = await start();
    hh.press(KEY.ctrl('c'));
    await hh.waitForCalls(1);
    expect(hh.c.methods()).toEqual(['interrupt']);
    await hh.waitFor((f) => f.includes('Press Ctrl+C again to quit'));
    hh.press(KEY.ctrl('c'));
    // Quitting is the root's exit, called by the screen itself: not a call on the agent.
    await waitFor(() => hh.exits === 1, 'onExit');
    expect(hh.c.methods()).toEqual(['interrupt']);
  });
});

describe('while AWAITING_INPUT', () => {
  test('Enter on an empty input resumes (an empty submit)', async () => {
    const { c, press, waitForCalls } = await start('AWAITING_INPUT');
    press(KEY.enter);
    await waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'submit', text: '' }]);
  });

  test('Ctrl+C when idle quits at once', async () => {
    const hh = await start('AWAITING_INPUT');
    hh.press(KEY.ctrl('c'));
    await waitFor(() => hh.exits === 1, 'onExit');
    expect(hh.c.methods()).toEqual([]);
  });

  test('Ctrl+C with a message typed clears it first; the next Ctrl+C quits', async () => {
    const hh = await start('AWAITING_INPUT');
    hh.type('half a thought');
    await hh.waitFor((f) => f.includes('› half a thought'));
    hh.press(KEY.ctrl('c'));
    await hh.waitFor((f) => !f.includes('half a thought') && f.includes('Press Ctrl+C again'));
    expect(hh.c.calls).toEqual([]);
    hh.press(KEY.ctrl('c'));
    await waitFor(() => hh.exits === 1, 'onExit');
    expect(hh.c.methods()).toEqual([]);
  });

  test('typing exit or /exit quits instead of sending', async () => {
    for (const word of ['exit', '/exit']) {
      const hh = await start('AWAITING_INPUT');
      hh.type(word);
      await hh.waitFor((f) => f.includes(`› ${word}`));
      hh.press(KEY.enter);
      await waitFor(() => hh.exits === 1, `onExit after ${word}`);
      expect(hh.c.methods()).toEqual([]);
      hh.unmount();
    }
  });

  test('Ctrl+P pauses, and again resumes', async () => {
    const { c, press, waitFor: wf, waitForCalls } = await start('AWAITING_INPUT');
    press(KEY.ctrl('p'));
    await wf((f) => f.includes('● Paused'));
    press(KEY.ctrl('p'));
    await waitForCalls(2);
    expect(c.methods()).toEqual(['togglePause', 'togglePause']);
    await wf((f) => f.includes('● Thinking'));
  });
});

describe('while PAUSED', () => {
  test('Enter sends, typing does not interrupt, Ctrl+P resumes', async () => {
    const { c, type, press, waitFor: wf, waitForCalls } = await start('PAUSED');
    type('hi');
    await wf((f) => f.includes('› hi'));
    expect(c.calls).toEqual([]);
    press(KEY.enter);
    await waitForCalls(1);
    press(KEY.ctrl('p'));
    await waitForCalls(2);
    expect(c.calls).toEqual([{ method: 'submit', text: 'hi' }, { method: 'togglePause' }]);
  });

  test('Esc stops an answer streaming while paused', async () => {
    const { c, press, waitForCalls } = await start('PAUSED');
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 10 });
    press(KEY.esc);
    await waitForCalls(1);
    expect(c.methods()).toEqual(['interrupt']);
  });
});

describe('while AWAITING_APPROVAL', () => {
  for (const [key, answer] of [
    ['y', 'yes'],
    ['n', 'no'],
    ['a', 'always'],
    [KEY.esc, 'no'],
  ] as const) {
    test(`${JSON.stringify(key)} answers ${answer}`, async () => {
      const c = createFakeController({ machine: 'THINKING' });
      askApproval(c);
      h = await renderApp({ c, approvalDelayMs: 0 });
      await h.waitFor((f) => f.includes('Approval needed'));
      h.press(key);
      await h.waitForCalls(1);
      expect(c.calls).toEqual([{ method: 'answerApproval', answer }]);
      await h.waitFor((f) => !f.includes('Approval needed'));
    });
  }

  test('other letters are typed into the message; Enter does not send while a call waits', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    askApproval(c);
    h = await renderApp({ c, approvalDelayMs: 0 });
    await h.waitFor((f) => f.includes('Approval needed'));
    h.type('x');
    await h.waitFor((f) => f.includes('› x'));
    h.press(KEY.enter);
    h.press('y');
    await h.waitForCalls(1);
    expect(c.calls).toEqual([{ method: 'answerApproval', answer: 'yes' }]);
    expect(h.frame()).toContain('› x');
  });
});

describe('in any state', () => {
  test('Ctrl+L redraws: the terminal is cleared and the whole frame comes back', async () => {
    const hh = await start('AWAITING_INPUT');
    const before = hh.frame();
    const written = hh.frames().length;
    hh.press(KEY.ctrl('l'));
    await waitFor(() => hh.redraws === 1, 'onRedraw');
    await waitFor(
      () =>
        hh
          .frames()
          .slice(written)
          .some((f) => f.trim() === ''),
      'a blank frame',
    );
    await hh.waitFor((f) => f === before);
  });

  test('Tab and Shift+Tab move the focus between the panes', async () => {
    const hh = await start('AWAITING_INPUT');
    const focused = (f: string): string | undefined => /━━ (\S+) ━/.exec(f)?.[1];
    expect(focused(hh.frame())).toBe('Input');
    const order: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const prev = focused(hh.frame());
      hh.press(KEY.tab);
      order.push(focused(await hh.waitFor((f) => focused(f) !== prev)));
    }
    expect(order).toEqual(['Conversation', 'Reasoning', 'Tools', 'Input']);
    hh.press(KEY.shiftTab);
    expect(focused(await hh.waitFor((f) => focused(f) !== 'Input'))).toBe('Tools');
  });

  test('Tab completes a /command prefix', async () => {
    const hh = await start('AWAITING_INPUT');
    hh.type('/pa');
    await hh.waitFor((f) => f.includes('› /pa'));
    hh.press(KEY.tab);
    await hh.waitFor((f) => f.includes('› /pause'));
    hh.press(KEY.ctrl('u'));
    hh.type('/p');
    hh.press(KEY.tab);
    // Two candidates: the common prefix stays, the candidates show in the hint line.
    await hh.waitFor((f) => f.includes('/pause  /persona'));
  });

  test('F1 and ? open the help, Esc closes it', async () => {
    const hh = await start('AWAITING_INPUT');
    hh.press(KEY.f1);
    await hh.waitFor((f) => f.includes('Help: keys and commands'));
    hh.press(KEY.esc);
    await hh.waitFor((f) => !f.includes('Help: keys and commands'));
    hh.press('?');
    await hh.waitFor((f) => f.includes('Help: keys and commands'));
    hh.press('q');
    await hh.waitFor((f) => f.includes('Conversation'));
    expect(hh.c.calls).toEqual([]);
  });

  test('Enter on the tool log opens the call in full while the agent keeps thinking', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    c.emit({ type: 'tool_end', entry: toolEntry({ full: 'FULL RESULT TEXT' }) });
    h = await renderApp({ c });
    h.press(KEY.shiftTab);
    await h.waitFor((f) => f.includes('━━ Tools'));
    h.press(KEY.enter);
    await h.waitFor((f) => f.includes('FULL RESULT TEXT'));
    expect(c.calls).toEqual([]);
    h.press(KEY.esc);
    await h.waitFor((f) => f.includes('━━ Tools'));
  });
});
