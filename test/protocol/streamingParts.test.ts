/**
 * The store's reader of a reply in flight: it parses only what follows the last settled
 * paragraph, and whatever the deltas, its parts are the ones one parse of the text gives.
 */
import { describe, expect, it } from 'vitest';
import { joinParts, type ReplyPart } from '../../src/core/messages.js';
import { StreamingParts } from '../../src/protocol/streamingParts.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf } from '../../src/protocol/replyParts.js';
import { PROTOCOL_CORPUS } from '../fixtures/protocol-corpus.js';
import { mulberry32 } from '../helpers/rng.js';

const once = (text: string) => partsOf('live', text, parseReply(text));

describe('the streaming reader', () => {
  it('reads every corpus reply, streamed in random deltas, into the parts of one parse', () => {
    const rng = mulberry32(26);
    for (const { style, reply } of PROTOCOL_CORPUS) {
      // Paragraphs around the reply, so the reader settles before, between and after calls.
      const text = `Intro.\n\n${reply}\n\nMore prose.\n\n${reply}\n\nEnd.`;
      const reader = new StreamingParts();
      for (let end = 0; end < text.length;) {
        end = Math.min(text.length, end + 1 + Math.floor(rng() * 40));
        expect(reader.read(text.slice(0, end)), `${style} at ${end}`).toEqual(
          once(text.slice(0, end)),
        );
      }
    }
  });

  it('its updates, joined as the store joins them, are the parts of one parse', () => {
    const rng = mulberry32(27);
    for (const { style, reply } of PROTOCOL_CORPUS) {
      const text = `Intro.\n\n${reply}\n\nMore prose.\n\n${reply}\n\nEnd. [WAIT]`;
      const reader = new StreamingParts();
      let settled: ReplyPart[] = [];
      for (let end = 0; end < text.length;) {
        const next = Math.min(text.length, end + 1 + Math.floor(rng() * 40));
        const u = reader.push(text.slice(end, next));
        end = next;
        settled = joinParts(settled, u.settled);
        const joined = { items: joinParts(settled, u.tail), wait: u.wait };
        // What the store holds is what the reader read; a short reply is read with every piece.
        expect(joined, `${style} at ${end}`).toEqual(reader.parts);
        if (end < 4096) expect(joined, `${style} at ${end}`).toEqual(once(text.slice(0, end)));
      }
      expect(reader.finish(), style).toEqual(once(text));
    }
  });

  it('a hostile reply of 200,000 tags on one line costs linear work, a bounded tail per read', () => {
    const text = '[TOOL] '.repeat(200_000);
    const reader = new StreamingParts();
    let worst = 0;
    for (let end = 0; end < text.length; end += 500) {
      const before = reader.parsedChars;
      const u = reader.push(text.slice(end, end + 500));
      worst = Math.max(worst, reader.parsedChars - before);
      // An update carries at most a tail of 32K characters (some 4,700 tags and the spaces between), not the reply.
      expect(u.tail.length + u.settled.length).toBeLessThan(10_000);
    }
    expect(worst).toBeLessThanOrEqual(32 * 1024);
    expect(reader.parsedChars).toBeLessThan(10 * text.length);
    // All the text is there, as text or calls, in order.
    const shown = reader
      .finish()
      .items.map((p) => (p.type === 'text' ? p.text : p.raw))
      .join('');
    expect(shown).toBe(text);
  });

  it('parses only the unsettled tail per read, however long the reply grows', () => {
    const reader = new StreamingParts();
    const para = 'Some prose with `code` and a [link](x). 第一段落的内容。'.repeat(4);
    let text = '';
    let worst = 0;
    for (let i = 0; text.length < 100_000; i++) {
      text += i % 5 === 4 ? '\n\n[TOOL] ls(".") [/TOOL]\n\n' : para.slice(0, 60);
      if (i % 3 === 2) text += '\n\n';
      const before = reader.parsedChars;
      reader.read(text);
      worst = Math.max(worst, reader.parsedChars - before);
    }
    // A full parse per read would be the whole reply (100K) each time.
    expect(worst).toBeLessThan(1_000);
    expect(reader.read(text)).toEqual(once(text));
  });

  it('starts afresh on a text that does not go on from the last', () => {
    const reader = new StreamingParts();
    reader.read('First reply.\n\nWith [TOOL] ls(".") [/TOOL]\n\nmore');
    expect(reader.read('Second.')).toEqual(once('Second.'));
  });
});
