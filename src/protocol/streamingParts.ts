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
/** An unsettled tail up to this long is read again with every piece (a parse of it is cheap). */
const SMALL_TAIL = 4 * 1024;
/** A longer one only once it grew by a quarter since it was read: linear work in all. */
const GROWTH = 1.25;
/**
 * A tail longer than this (a hostile reply of 200,000 tags on one line) is not read again
 * while it streams: one parse would hold the event loop too long. It is settled as it was
 * last read (the text since as text) and reading goes on after it; the saved message shows
 * the turn's own yielding parse of the whole reply.
 */
const MAX_LIVE_TAIL = 32 * 1024;

export class StreamingParts {
  /** The text last read, and all the text so far (longer while a long tail waits). */
  private text = '';
  private full = '';
  /** How much of `text` is settled, and its parts. */
  private base = 0;
  private baseParts: ReplyPart[] = [];
  private baseCalls = 0;
  /** The parts of the whole text, joined when asked for (not per piece: the base can be long). */
  private last: ReplyParts | undefined;
  /** What the last read changed: the parts it settled and the tail's parts. */
  private lastUpdate: PartsUpdate = { settled: [], tail: [], wait: false };
  /** Characters parsed in all: what the bench and the tests measure. */
  parsedChars = 0;
  /** How long the unsettled tail was when it was last read. */
  private readTail = 0;

  /** @param replyId the id the calls are numbered under (`<replyId>#<index>`). */
  constructor(private readonly replyId = LIVE_ID) {}

  /** The parts of the text read so far. */
  get parts(): ReplyParts {
    const u = this.lastUpdate;
    this.last ??= { items: joinParts(this.baseParts, u.tail), wait: u.wait };
    return this.last;
  }

  /**
   * Reads `delta`, the next piece of the reply: what it changed in the parts. A long
   * unsettled tail is read again only as it grows (see {@link GROWTH}); in between, the piece
   * is added to the tail as text, until the next read places it.
   */
  push(delta: string): PartsUpdate {
    const text = (this.full += delta);
    const tail = text.length - this.base;
    if (tail <= SMALL_TAIL || (tail >= this.readTail * GROWTH && tail <= MAX_LIVE_TAIL)) {
      this.read(text);
      return this.lastUpdate;
    }
    // Not read now: the piece goes on the tail as text.
    const items = joinParts(this.lastUpdate.tail, [{ type: 'text', text: delta }]);
    this.last = undefined;
    if (tail <= MAX_LIVE_TAIL) {
      this.lastUpdate = { settled: [], tail: items, wait: false };
      return this.lastUpdate;
    }
    // Too long to read again: settled as it stands, and what comes next is read afresh.
    this.baseParts = joinParts(this.baseParts, items);
    this.baseCalls += items.filter((p) => p.type === 'call').length;
    this.base = text.length;
    this.text = text;
    this.readTail = 0;
    this.lastUpdate = { settled: items, tail: [], wait: false };
    return this.lastUpdate;
  }

  /**
   * The reply has all come: its parts, read whole unless the tail is too long to read at once
   * (then as the last read left them; the turn's own parse follows).
   */
  finish(): ReplyParts {
    if (this.full.length - this.base <= MAX_LIVE_TAIL) this.read(this.full);
    return this.parts;
  }

  /** The parts of `text`, a reply in flight (a text that does not go on from the last starts afresh). */
  read(text: string): ReplyParts {
    if (text === this.text) return this.parts;
    if (!text.startsWith(this.text.slice(0, this.base))) this.reset();
    this.text = text;
    this.full = text;
    const tail = text.slice(this.base);
    const parsed = parseReply(tail);
    this.parsedChars += tail.length;
    this.readTail = tail.length;
    const tailParts = partsOf(this.replyId, tail, parsed, this.baseCalls);
    this.last = undefined;
    const settled = parsed.settled;
    if (settled === undefined) {
      this.lastUpdate = { settled: [], tail: tailParts.items, wait: parsed.wait };
      return this.parts;
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
    this.readTail = tail.length - settled;
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
    return this.parts;
  }

  private reset(): void {
    this.text = '';
    this.base = 0;
    this.baseParts = [];
    this.baseCalls = 0;
    this.readTail = 0;
    this.last = undefined;
    this.lastUpdate = { settled: [], tail: [], wait: false };
  }
}
