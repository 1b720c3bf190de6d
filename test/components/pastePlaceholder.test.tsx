/**
 * Large pastes: 1,100 pasted lines show as `[pasted 1,100 lines]` in the input box (no echo
 * of the text), the message sent holds the whole text; Backspace deletes a placeholder as
 * one unit, Ctrl+O opens it into its text, and two pastes in one message each keep their own.
 * Small pastes stay text as before.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const paste = (text: string): string => `\x1b[200~${text}\x1b[201~`;
/** 1,100 numbered lines (the terminal sends CRs), about 20 KB. */
const BIG = Array.from({ length: 1100 }, (_, i) => `log line ${i + 1} of the build output`);

const inputLine = (f: string): string => {
  const lines = f.split('\n');
  return (lines[lines.findIndex((l) => / Input [─━]/.test(l)) + 1] ?? '').trimEnd();
};

const start = async (): Promise<Harness> => {
  h = await renderApp({ c: createFakeController({ machine: 'AWAITING_INPUT' }) });
  return h;
};

describe('paste placeholders', () => {
  test('1,100 pasted lines show as one placeholder; the whole text is sent', async () => {
    const hh = await start();
    hh.type('look at this: ');
    hh.press(paste(BIG.join('\r')));
    const f = await hh.waitFor((x) => inputLine(x) === '› look at this: [pasted 1,100 lines]');
    expect(f).not.toContain('log line 1 of');
    expect(f).not.toContain('log line 1100');
    // The hint names the key that opens it.
    expect(f).toContain('Ctrl+O open paste');
    hh.type(' why?');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([
      { method: 'submit', text: `look at this: ${BIG.join('\n')} why?` },
    ]);
  });

  test('Backspace deletes a placeholder whole; two pastes keep their own text', async () => {
    const hh = await start();
    const second = Array.from({ length: 20 }, (_, i) => `row ${i}`);
    hh.press(paste(BIG.join('\r')));
    hh.type(' and ');
    hh.press(paste(second.join('\r')));
    await hh.waitFor((x) => inputLine(x) === '› [pasted 1,100 lines] and [pasted 20 lines]');
    hh.press(KEY.backspace);
    await hh.waitFor((x) => inputLine(x) === '› [pasted 1,100 lines] and');
    // The same size twice: the second gets its own label.
    hh.press(paste(BIG.join('\r')));
    await hh.waitFor((x) => inputLine(x) === '› [pasted 1,100 lines] and [pasted 1,100 lines #2]');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([
      { method: 'submit', text: `${BIG.join('\n')} and ${BIG.join('\n')}` },
    ]);
  });

  test('one long line collapses by characters; Ctrl+O opens it; a short paste stays text', async () => {
    const hh = await start();
    hh.press(paste('short\rpaste'));
    await hh.waitFor((x) => inputLine(x) === '› short' && x.includes('  paste'));
    hh.press(KEY.ctrl('c'));
    await hh.waitFor((x) => !x.includes('short'));
    const long = 'x'.repeat(1500);
    hh.press(paste(long));
    await hh.waitFor((x) => inputLine(x) === '› [pasted 1,500 characters]');
    hh.press(KEY.ctrl('o'));
    await hh.waitFor((x) => !x.includes('[pasted') && x.includes('x'.repeat(90)));
    // Open, it is ordinary text: Backspace takes one character.
    hh.press(KEY.backspace);
    hh.type('Z');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: `${'x'.repeat(1499)}Z` }]);
  });
});
