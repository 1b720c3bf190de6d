/**
 * The turn's reader of a reply as it streams: it turns the text read so far into parts
 * (text, calls, `[WAIT]`) once, and the `message_update` events carry them, so the store and
 * the screen draw what the turn read and parse nothing.
 *
 * Each read parses only the text after the last settled place (a line after a blank line the
 * scan reached in plain text, `ParsedReply.settled`): what came before it cannot read
 * differently however the reply goes on, so its parts are kept. A long reply then costs a
 * parse of its last paragraph or so per piece, not of the whole reply; and an update carries
 * only the parts that settled since the last one and the tail ({@link PartsUpdate}).
 */
import { joinParts, type PartsUpdate, type ReplyPart, type ReplyParts } from '../core/messages.js';
import { parseReply } from './parser.js';
import { partsOf } from './replyParts.js';

/** The id the calls of a reply in flight are given when it has no message id yet. */
const LIVE_ID = 'live';

export class StreamingParts {
  private text = '';
  /** How much of `text` is settled, and its parts. */
  private base = 0;
  private baseParts: ReplyPart[] = [];
  private baseCalls = 0;
  private last: ReplyParts = { items: [], wait: false };
  /** What the last read changed: the parts it settled and the tail's parts. */
  private lastUpdate: PartsUpdate = { settled: [], tail: [], wait: false };
  /** Characters parsed in all: what the bench and the tests measure. */
  parsedChars = 0;

  /** @param replyId the id the calls are numbered under (`<replyId>#<index>`). */
  constructor(private readonly replyId = LIVE_ID) {}

  /** The parts of the text read so far. */
  get parts(): ReplyParts {
    return this.last;
  }

  /** Reads `delta`, the next piece of the reply: what it changed in the parts. */
  push(delta: string): PartsUpdate {
    this.read(this.text + delta);
    return this.lastUpdate;
  }

  /** The parts of `text`, a reply in flight (a text that does not go on from the last starts afresh). */
  read(text: string): ReplyParts {
    if (text === this.text) return this.last;
    if (!text.startsWith(this.text.slice(0, this.base))) this.reset();
    this.text = text;
    const tail = text.slice(this.base);
    const parsed = parseReply(tail);
    this.parsedChars += tail.length;
    const tailParts = partsOf(this.replyId, tail, parsed, this.baseCalls);
    this.last = {
      items: joinParts(this.baseParts, tailParts.items),
      wait: parsed.wait,
    };
    const settled = parsed.settled;
    if (settled === undefined) {
      this.lastUpdate = { settled: [], tail: tailParts.items, wait: parsed.wait };
      return this.last;
    }
    const before = parsed.items.filter((item) => item.end <= settled);
    const head = tail.slice(0, settled);
    const parts = partsOf(
      this.replyId,
      head,
      { items: before, wait: false, text: '' },
      this.baseCalls,
    );
    this.baseParts = joinParts(this.baseParts, parts.items);
    this.baseCalls += before.length;
    this.base += settled;
    // The tail as the next read will see it: the parts after the settled head.
    const rest = text.slice(this.base);
    const restParsed = { ...parsed, items: parsed.items.filter((i) => i.end > settled) };
    const shifted = {
      ...restParsed,
      items: restParsed.items.map((i) => ({
        ...i,
        start: i.start - settled,
        end: i.end - settled,
      })),
    };
    this.lastUpdate = {
      settled: parts.items,
      tail: partsOf(this.replyId, rest, shifted, this.baseCalls).items,
      wait: parsed.wait,
    };
    return this.last;
  }

  private reset(): void {
    this.text = '';
    this.base = 0;
    this.baseParts = [];
    this.baseCalls = 0;
    this.lastUpdate = { settled: [], tail: [], wait: false };
  }
}
