/**
 * The parts of a reply while it streams, before the turn has read it. Each read parses only
 * the text after the last settled place (a line after a blank line the scan reached in plain
 * text, `ParsedReply.settled`): what came before it cannot read differently however the reply
 * goes on, so its parts are kept. A long reply then costs a parse of its last paragraph or
 * so per frame, not of the whole reply.
 *
 * The saved message's parts come from the turn's own parse (RUN), never from here: this only
 * draws the reply in flight.
 */
import type { ReplyPart, ReplyParts } from '../core/messages.js';
import { parseReply } from './parser.js';
import { partsOf } from './replyParts.js';

/** The id the calls of a reply in flight are given (it has no message id yet). */
const LIVE_ID = 'live';

export class StreamingParts {
  private text = '';
  /** How much of `text` is settled, and its parts. */
  private base = 0;
  private baseParts: ReplyPart[] = [];
  private baseCalls = 0;
  private last: ReplyParts = { items: [], wait: false };
  /** Characters parsed in all: what the bench and the tests measure. */
  parsedChars = 0;

  /** The parts of `text`, a reply in flight (a text that does not go on from the last starts afresh). */
  read(text: string): ReplyParts {
    if (text === this.text) return this.last;
    if (!text.startsWith(this.text.slice(0, this.base))) this.reset();
    this.text = text;
    const tail = text.slice(this.base);
    const parsed = parseReply(tail);
    this.parsedChars += tail.length;
    const tailParts = partsOf(LIVE_ID, tail, parsed, this.baseCalls);
    this.last = {
      items: joined(this.baseParts, tailParts.items),
      wait: parsed.wait,
    };
    const settled = parsed.settled;
    if (settled !== undefined) {
      const before = parsed.items.filter((item) => item.end <= settled);
      const head = tail.slice(0, settled);
      const parts = partsOf(
        LIVE_ID,
        head,
        { items: before, wait: false, text: '' },
        this.baseCalls,
      );
      this.baseParts = joined(this.baseParts, parts.items);
      this.baseCalls += before.length;
      this.base += settled;
    }
    return this.last;
  }

  private reset(): void {
    this.text = '';
    this.base = 0;
    this.baseParts = [];
    this.baseCalls = 0;
  }
}

/** `a` then `b`, a stretch of text across the seam made one again (as one parse reads it). */
function joined(a: readonly ReplyPart[], b: readonly ReplyPart[]): ReplyPart[] {
  const last = a[a.length - 1];
  const first = b[0];
  if (last?.type === 'text' && first?.type === 'text') {
    return [...a.slice(0, -1), { type: 'text', text: last.text + first.text }, ...b.slice(1)];
  }
  return [...a, ...b];
}
