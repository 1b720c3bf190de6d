/**
 * The `@` path list under the input: `@` and letters show the matching paths, ↓/↑ choose,
 * Tab or Enter put the chosen path in the line (Enter does not send while the list is open,
 * and sends as always once it is closed), Esc closes the list leaving the text alone, and a
 * slow lookup for an older prefix never replaces the list for the newer one.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFakeController } from '../helpers/fakeController.js';
import { KEY, renderApp, type Harness } from '../helpers/renderApp.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const PATHS = ['notes/', 'notes.md', 'notes/a.md', 'docs/notes-old.md', 'readme.md'];
const find = async (q: string): Promise<string[]> =>
  PATHS.filter((p) => p.includes(q.toLowerCase())).slice(0, 8);

const inputLine = (f: string): string => {
  const lines = f.split('\n');
  return (lines[lines.findIndex((l) => / Input [─━]/.test(l)) + 1] ?? '').trimEnd();
};

const start = async (findPaths = find): Promise<Harness> => {
  h = await renderApp({ c: createFakeController({ machine: 'AWAITING_INPUT' }), findPaths });
  return h;
};

describe('the @ path list', () => {
  test('@no lists the paths; ↓ and Tab put the chosen one; Enter then sends', async () => {
    const hh = await start();
    hh.type('read @no');
    const f = await hh.waitFor((x) => x.includes('▸ @notes/') && x.includes('  @notes.md'));
    expect(f).toContain('Tab/Enter attach');
    expect(f).not.toContain('Enter send');
    expect(f).not.toContain('@readme.md');
    hh.press(KEY.down);
    await hh.waitFor((x) => x.includes('▸ @notes.md'));
    hh.press(KEY.tab);
    await hh.waitFor((x) => inputLine(x) === '› read @notes.md' && !x.includes('@notes/a.md'));
    hh.type('please');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: 'read @notes.md please' }]);
  });

  test('Enter puts a folder and keeps the list going inside it; ↑ goes round', async () => {
    const hh = await start();
    hh.type('@no');
    await hh.waitFor((x) => x.includes('▸ @notes/'));
    hh.press(KEY.up);
    await hh.waitFor((x) => x.includes('▸ @docs/notes-old.md'));
    hh.press(KEY.down);
    await hh.waitFor((x) => x.includes('▸ @notes/'));
    hh.press(KEY.enter);
    await hh.waitFor(
      (x) => inputLine(x) === '› @notes/' && x.includes('▸ @notes/') && x.includes('  @notes/a.md'),
    );
    expect(hh.c.calls).toEqual([]);
  });

  test('Esc closes the list and leaves the text; Enter then sends it as typed', async () => {
    const hh = await start();
    hh.type('see @no');
    await hh.waitFor((x) => x.includes('▸ @notes/'));
    hh.press(KEY.esc);
    await hh.waitFor((x) => !x.includes('@notes/') && inputLine(x) === '› see @no');
    // Typing more of the same mention does not bring it back.
    hh.type('t');
    await hh.waitFor((x) => inputLine(x) === '› see @not');
    expect(hh.frame()).not.toContain('@notes.md');
    hh.press(KEY.enter);
    await hh.waitForCalls(1);
    expect(hh.c.calls).toEqual([{ method: 'submit', text: 'see @not' }]);
  });

  test('a slow answer for an older prefix does not replace the newer list', async () => {
    let release: (() => void) | undefined;
    const slow = async (q: string): Promise<string[]> => {
      if (q === 'n') await new Promise<void>((r) => (release = r));
      return find(q);
    };
    const hh = await start(slow);
    hh.type('@n');
    await hh.waitFor((x) => inputLine(x) === '› @n');
    hh.type('otes/');
    await hh.waitFor((x) => x.includes('▸ @notes/') && x.includes('@notes/a.md'));
    release?.();
    await new Promise((r) => setImmediate(r));
    hh.press(KEY.down);
    await hh.waitFor((x) => x.includes('▸ @notes/a.md'));
    expect(hh.frame()).not.toContain('@readme.md');
  });
});
