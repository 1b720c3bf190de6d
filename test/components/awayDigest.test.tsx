import { afterEach, describe, expect, test } from 'vitest';
import { buildDigest } from '../../src/ledger/digest.js';
import { localTime } from '../../src/agent/activityText.js';
import type { CycleRecord } from '../../src/api/ledger.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);
const rec = (min: number, extra: Partial<CycleRecord>): CycleRecord => ({
  turnId: min,
  at: T0 + min * 60_000,
  reason: 'timer',
  durationMs: 2000,
  tokensIn: 1000,
  tokensCached: 900,
  tokensOut: 50,
  tools: [],
  files: [],
  end: 'continued',
  ...extra,
});

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe('while you were away', () => {
  test('the first key after 10 minutes shows a digest whose numbers match the ledger; Esc closes it', async () => {
    let now = T0;
    h = await renderApp({ now: () => now });
    h.press('x'); // a key at T0: the user is here
    const ledger = [
      rec(2, { reason: 'change', files: ['notes/a.md'], reply: 'Filed the new note.' }),
      rec(30, { tools: ['read("b.md")'], reply: 'Read b.md: a shopping list.' }),
      rec(50, { files: ['notes/a.md', 'summary.md'], tokensCached: 0 }),
    ];
    h.c.emit({ type: 'ledger_loaded', records: ledger });
    now = T0 + 60 * 60_000; // an hour without a key
    h.press('y');
    const f = await h.waitFor((x) => x.includes('While you were away'));
    const d = buildDigest(ledger, T0, now);
    expect(d).toMatchObject({ cycles: 3, tokensIn: 3000, tokensCached: 1800, tokensOut: 150 });
    expect(f).toContain('While you were away (1h)');
    expect(f).toContain('3 cycles run; resting 1h of the time');
    expect(f).toContain('Tokens: 3k in (1.8k cached), 150 out');
    expect(f).toContain('Files changed (2):');
    expect(f).toContain('summary.md');
    expect(f).toContain('/undo');
    // Newest reply first.
    expect(f.indexOf('Read b.md')).toBeLessThan(f.indexOf('Filed the new note'));
    h.press(KEY.esc);
    await h.waitFor((x) => !x.includes('While you were away'));
  });

  test('no key is lost to the digest: "rate limit please" typed after 10 minutes away is sent whole', async () => {
    let now = T0;
    h = await renderApp({ now: () => now });
    h.press('x', KEY.backspace); // a key at T0: the user is here; the input is empty again
    h.c.emit({ type: 'ledger_loaded', records: [rec(2, { reply: 'Filed the new note.' })] });
    now = T0 + 10 * 60_000; // away exactly long enough
    h.type('rate limit please');
    const f = await h.waitFor(
      (x) => x.includes('While you were away') && x.includes('rate limit please'),
    );
    expect(f).toContain('Filed the new note.'); // the digest is open while the user types
    h.press(KEY.enter);
    await h.waitFor(() => h!.c.calls.some((x) => x.method === 'submit'));
    expect(h.c.calls.filter((x) => x.method === 'submit')).toEqual([
      { method: 'submit', text: 'rate limit please' },
    ]);
    await h.waitFor((x) => !x.includes('While you were away'));
  });

  test('a non-text key closes the digest and still does its job; Esc only closes it', async () => {
    let now = T0;
    h = await renderApp({ now: () => now });
    h.press('x');
    h.c.emit({ type: 'ledger_loaded', records: [rec(2, {})] });
    now = T0 + 30 * 60_000;
    h.press(KEY.backspace); // opens the digest and deletes the x
    await h.waitFor((x) => x.includes('While you were away'));
    h.press(KEY.ctrl('g')); // closes it and opens the ledger
    await h.waitFor((x) => x.includes('Cycle ledger') && !x.includes('While you were away'));
  });

  test('a key within 10 minutes shows no digest; Ctrl+G opens the ledger view', async () => {
    let now = T0;
    h = await renderApp({ now: () => now });
    h.c.emit({
      type: 'ledger_loaded',
      records: [rec(1, { reason: 'schedule', tools: ['ls(".")'] })],
    });
    now = T0 + 9 * 60_000;
    h.press(KEY.ctrl('g'));
    const f = await h.waitFor((x) => x.includes('Cycle ledger'));
    expect(f).not.toContain('While you were away');
    expect(f).toMatch(/schedule\s+2s\s+1k\s+900\s+50\s+ls/);
    h.press(KEY.esc);
    await h.waitFor((x) => !x.includes('Cycle ledger'));
  });

  test('says what it does now and repeats the question still open', async () => {
    let now = T0;
    h = await renderApp({ now: () => now });
    h.press('x');
    const asked = T0 + 5 * 60_000;
    h.c.emit({ type: 'ledger_loaded', records: [rec(40, { reason: 'change' })] });
    h.c.emit({
      type: 'activity',
      activity: {
        state: 'waiting',
        since: asked,
        question: { text: 'Should I sort the scans by year?', at: asked },
        watchFrom: asked + 30 * 60_000,
      },
    });
    now = T0 + 60 * 60_000;
    h.press('y');
    const f = await h.waitFor((x) => x.includes('While you were away'));
    expect(f).toContain(`Now: waiting for your answer since ${localTime(asked)}`);
    expect(f).toContain(`Still waiting for your answer (asked ${localTime(asked)}):`);
    expect(f).toContain('Should I sort the scans by year?');
  });
});
