/**
 * The session picker: `/resume` typed in the screen (not paused) opens this folder's
 * sessions, the user's first and the scripts' under their own heading; ↓/j and ↑/k move,
 * Enter opens the chosen session (the agent gets `/resume ID`), Esc closes without a word to
 * the agent; paused, `/resume` still goes to the agent (the way out of the pause).
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { SessionChoice } from '../../src/history/sessionChoices.js';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

const AT = Date.UTC(2026, 11, 5, 9, 0);
const CHOICES: SessionChoice[] = [
  {
    id: 's-now',
    title: 'plan the trip',
    updatedAt: AT,
    messageCount: 12,
    kind: 'interactive',
    current: true,
  },
  {
    id: 's-old',
    title: 'tax questions',
    updatedAt: AT - 86_400_000,
    messageCount: 4,
    kind: 'interactive',
    current: false,
  },
  {
    id: 's-cron',
    title: 'nightly report',
    updatedAt: AT + 60_000,
    messageCount: 2,
    kind: 'print',
    current: false,
  },
];

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const submits = (hh: Harness): string[] =>
  hh.c.calls.flatMap((c) => (c.method === 'submit' ? [c.text] : []));

async function openPicker(machine: 'AWAITING_INPUT' | 'PAUSED' = 'AWAITING_INPUT') {
  let listed = 0;
  h = await renderApp({
    c: createFakeController({ machine }),
    listSessions: async () => (listed++, CHOICES),
  });
  h.type('/resume');
  h.press(KEY.enter);
  return { h, listed: () => listed };
}

describe('the session picker', () => {
  test('lists the sessions, scripts apart; ↓ j ↑ move; Enter opens the chosen one', async () => {
    const { h } = await openPicker();
    const f = await h.waitFor((x) => x.includes('Sessions of this folder (3)'));
    const lines = f.split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.includes(s));
    expect(at('Yours')).toBeLessThan(at('plan the trip'));
    expect(at('tax questions')).toBeLessThan(at('Script runs (cogito -p)'));
    expect(at('Script runs (cogito -p)')).toBeLessThan(at('nightly report'));
    expect(lines[at('plan the trip')]).toMatch(/› plan the trip .*12 msgs .*open now/);
    expect(lines[at('tax questions')]).toContain('4 msgs');
    // The keys are in the hint line.
    expect(f).toMatch(/Enter open/);
    expect(f).toMatch(/Esc\/q close/);
    expect(submits(h)).toEqual([]);

    h.press(KEY.down);
    await h.waitFor((x) => /› tax questions/.test(x));
    h.press('j');
    await h.waitFor((x) => /› nightly report/.test(x));
    h.press('j'); // the last row stays chosen
    h.press('k');
    await h.waitFor((x) => /› tax questions/.test(x));
    h.press(KEY.up, KEY.down);
    await h.waitFor((x) => /› tax questions/.test(x));
    h.press(KEY.enter);
    await h.waitForCalls(1);
    expect(submits(h)).toEqual(['/resume s-old']);
    await h.waitFor((x) => !x.includes('Sessions of this folder'));
  });

  test('Esc closes it and tells the agent nothing', async () => {
    const { h } = await openPicker();
    await h.waitFor((x) => x.includes('Sessions of this folder (3)'));
    h.press(KEY.esc);
    await h.waitFor((x) => !x.includes('Sessions of this folder'));
    h.type('hello');
    h.press(KEY.enter);
    await h.waitForCalls(1);
    expect(submits(h)).toEqual(['hello']);
  });

  test('paused, /resume is the way out of the pause: it goes to the agent, no picker', async () => {
    const { h, listed } = await openPicker('PAUSED');
    await h.waitForCalls(1);
    expect(submits(h)).toEqual(['/resume']);
    expect(listed()).toBe(0);
    expect(h.frame()).not.toContain('Sessions of this folder');
  });

  test('/resume ID goes to the agent as typed', async () => {
    h = await renderApp({
      c: createFakeController({ machine: 'AWAITING_INPUT' }),
      listSessions: async () => CHOICES,
    });
    h.type('/resume s-old');
    h.press(KEY.enter);
    await h.waitForCalls(1);
    expect(submits(h)).toEqual(['/resume s-old']);
  });
});
