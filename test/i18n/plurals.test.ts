/**
 * English plurals: "1 file", never "1 files", in every message of the table, on the status
 * bar and in the tool log's summaries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { interpolate, placeholders, t, type MessageKey } from '../../src/i18n/messages.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';
import { makeFixture, text, type Fixture } from '../tools/fixture.js';

/** "1 <plural noun>" (the nouns the messages and tools count). */
const ONE_PLURAL =
  /\b1 (?:\w+ )?(files|changes|messages|msgs|tools|cycles|characters|entries|matches|lines|results|turns|calls|sessions|reminders|servers)\b/;

const WORDS = new Set(['kind', 'tool', 'policy']);

let h: Harness | undefined;
let f: Fixture | undefined;
afterEach(async () => {
  h?.unmount();
  h = undefined;
  await f?.cleanup();
  f = undefined;
});

describe('plurals in English', () => {
  it('{n|one|other} picks the word for the number', () => {
    expect(t('en', 'status.filesChanged', { count: 1 })).toBe('1 file changed');
    expect(t('en', 'status.filesChanged', { count: 0 })).toBe('0 files changed');
    expect(t('en', 'status.filesChanged', { count: 2 })).toBe('2 files changed');
    expect(placeholders('{count} {count|file|files}')).toEqual(['count']);
    // Chinese has no plural: the same placeholder, one word.
    expect(t('zh', 'status.filesChanged', { count: 1 })).not.toContain('{');
  });

  it('no message of the table says "1 <plural>" when its numbers are 1', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      const template = en[key];
      // Every number 1; the names that hold words (a tool kind, a policy) a word.
      const vars = Object.fromEntries(
        placeholders(template).map((p) => [p, WORDS.has(p) ? 'read' : 1]),
      );
      expect(interpolate(template, vars), key).not.toMatch(ONE_PLURAL);
    }
  });

  it('the status bar: 1 file changed', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    h = await renderApp({ c, columns: 160 });
    c.emit({ type: 'files_changed', count: 1 });
    const frame = await h.waitFor((x) => x.includes('file changed'));
    expect(frame).toContain('1 file changed');
    expect(frame).not.toMatch(ONE_PLURAL);
  });

  it('the tool summaries: 1 match in 1 file, 1 entry', async () => {
    f = await makeFixture();
    await f.write('notes/todo.md', 'buy milk\n');
    const grep = await f.call('grep', 'milk', 'notes');
    expect(grep.ok && grep.display).toMatch(/1 match in 1 file$/);
    expect(text(grep)).toContain('1 match for');
    expect(text(grep)).toContain('in 1 file under');
    expect(text(await f.call('ls', 'notes'))).toContain('(1 entry)');
  });
});
