/**
 * The end of a streamed reply: the saved message it becomes is drawn from the live reply's
 * Markdown streams, so only the unfinished tail is lexed again, not the whole reply (a long
 * reply parsed in full was a long frame right after an interrupt).
 */
import { marked } from 'marked';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { blockRows, type Block } from '../../components/panes/conversation.js';
import { LiveRows } from '../../components/panes/liveRows.js';
import { makeMessage } from '../../src/core/messages.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';
import { partsOfText, replyUpdates } from '../helpers/replyParts.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
  vi.restoreAllMocks();
});

/** A reply of many paragraphs, some with Markdown in them. */
function longReply(paragraphs: number): string {
  return Array.from(
    { length: paragraphs },
    (_, i) => `Paragraph ${i} has **bold** words, \`code\` and a [link](https://x.test/${i}).`,
  ).join('\n\n');
}

const messageBlock = (content: string, interrupted = false): Block => {
  const message = makeMessage('assistant', content, interrupted ? { interrupted } : {});
  return { kind: 'message', key: message.id, message };
};

describe('a reply that ends its stream', () => {
  test('adopting the live streams gives the rows of a fresh parse, lexing only the tail', () => {
    const text = longReply(300);
    const live = new LiveRows();
    for (let end = 100; end < text.length; end += 97)
      live.rows(text.slice(0, end), partsOfText(text.slice(0, end)), 80, 'en', true);
    const shown = text.slice(0, text.length - 120);
    live.rows(shown, partsOfText(shown), 80, 'en', true);
    const before = live.work;
    const block = messageBlock(text, true);
    const rows = blockRows(block, 80, 'en', live.adopt(text, 80));
    expect(rows).toEqual(blockRows(block, 80, 'en'));
    expect(rows.some((r) => r.text.includes('interrupted'))).toBe(true);
    // The last paragraphs and what came after the last frame, not 20K characters again.
    expect(live.work - before).toBeLessThan(1000);
    expect(text.length).toBeGreaterThan(20_000);
    // Taken once: a second message, or one that does not continue the text, parses afresh.
    expect(live.adopt(text, 80)).toBeUndefined();
    live.rows('Another reply', partsOfText('Another reply'), 80, 'en', true);
    expect(live.adopt('Something else entirely', 80)).toBeUndefined();
    expect(live.adopt('Another reply, finished', 100)).toBeUndefined();
  });

  test('on screen: the saved reply replaces the live one without lexing it all again', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 5 });
    const text = longReply(300);
    const step = Math.ceil(text.length / 20);
    const update = replyUpdates();
    for (let end = step; end < text.length; end += step) {
      c.emit(update(text.slice(end - step, end)));
      const shownUpTo = text.slice(0, end).lastIndexOf('Paragraph');
      const label = text.slice(shownUpTo, shownUpTo + 12).trim();
      await h.waitFor((f) => f.includes(label));
    }
    // Every lex goes through a Lexer's lex(), whichever door it came in by.
    const lexer = vi.spyOn(marked.Lexer.prototype, 'lex');
    c.move('INTERRUPT');
    c.emit({
      type: 'message_added',
      message: makeMessage('assistant', text, { interrupted: true }),
    });
    await h.waitFor((f) => f.includes('interrupted') && f.includes('Paragraph 299'));
    const lexed = lexer.mock.calls.reduce((n, [src]) => n + src.length, 0);
    expect(lexed).toBeLessThan(text.length / 4);
  });
});
