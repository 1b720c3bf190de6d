/**
 * A streamed reply ends as it would render whole: many seeded random Markdown documents,
 * each fed to the stream in random chunks, and the stream's final lines compared with the
 * lines of the whole text. A failure names the seed, so the case can be replayed.
 */
import { describe, expect, test } from 'vitest';
import { blockRows, type Block } from '../../components/panes/conversation.js';
import { LiveRows } from '../../components/panes/liveRows.js';
import { markdownLines, MarkdownStream } from '../../components/markdown/markdown.js';
import { makeMessage } from '../../src/core/messages.js';
import { markdownCase } from '../helpers/markdownDocs.js';
import { partsOfText } from '../helpers/replyParts.js';

const DOCS = 300;

describe('a streamed reply ends as it would render whole', () => {
  test(`${DOCS} random documents in random chunks: the last lines are the whole render`, () => {
    for (let seed = 1; seed <= DOCS; seed++) {
      const { text, width, ends } = markdownCase(seed);
      const stream = new MarkdownStream();
      for (const end of ends) stream.lines(text.slice(0, end), width);
      expect(stream.lines(text, width, true), `seed ${seed}:\n${text}`).toEqual(
        markdownLines(text, width),
      );
    }
  });

  test('through the reply pane: the saved message drawn from the live streams is the whole render', () => {
    for (let seed = 1001; seed <= 1100; seed++) {
      const { text, width, ends } = markdownCase(seed, [20, 100]);
      const live = new LiveRows();
      for (const end of ends)
        live.rows(text.slice(0, end), partsOfText(text.slice(0, end)), width, 'en', true);
      const message = makeMessage('assistant', text);
      const saved: Block = { kind: 'message', key: message.id, message };
      expect(blockRows(saved, width, 'en', live.adopt(text, width)), `seed ${seed}`).toEqual(
        blockRows(saved, width, 'en'),
      );
    }
  });

  test('a reference used before its definition is a link at the end, not a raw [foo]', () => {
    const text = `See [the spec] for details.\n\nMore text here.\n\n[the spec]: https://spec.test/`;
    const stream = new MarkdownStream();
    for (let end = 1; end <= text.length; end++) stream.lines(text.slice(0, end), 60);
    const shown = stream
      .lines(text, 60, true)
      .map((l) => l.map((s) => s.text).join(''))
      .join('\n');
    expect(shown).not.toContain('[the spec]');
    expect(shown).toContain('(https://spec.test/)');
  });
});
