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
  /** All the text so far (`read` compares against it; `push` only appends). */
  private full = '';
  /** The text after the settled place, kept apart so a piece never copies the whole reply. */
  private tailText = '';
  /** How much of `full` is settled, and its parts. */
  private base = 0;
  private baseParts: ReplyPart[] = [];
  private baseCalls = 0;
  /** The parts of the whole text, joined when asked for (not per piece: the base can be long). */
  private last: ReplyParts | undefined;
  /** What the last piece changed: the parts it settled and the tail's parts. */
  private lastUpdate: PartsUpdate = { settled: [], tail: [], wait: false };
  /** How long the tail was when it was last read (-1: the tail now is not read yet). */
  private readTail = 0;
  private unread = false;
  /** Characters parsed in all: what the bench and the tests measure. */
  parsedChars = 0;

  /** @param replyId the id the calls are numbered under (`<replyId>#<index>`). */
  constructor(private readonly replyId = LIVE_ID) {}

  /** The parts of the text so far, as last read. */
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
    this.full += delta;
    this.tailText += delta;
    const tail = this.tailText.length;
    if (tail <= SMALL_TAIL || (tail >= this.readTail * GROWTH && tail <= MAX_LIVE_TAIL)) {
      this.readTailText();
      return this.lastUpdate;
    }
    // Not read now: the piece goes on the tail as text.
    const items = joinParts(this.lastUpdate.tail, [{ type: 'text', text: delta }]);
    this.last = undefined;
    this.unread = true;
    if (tail <= MAX_LIVE_TAIL) {
      this.lastUpdate = { settled: [], tail: items, wait: false };
      return this.lastUpdate;
    }
    // Too long to read again: settled as it stands, and what comes next is read afresh.
    this.baseParts = joinParts(this.baseParts, items);
    this.baseCalls += items.filter((p) => p.type === 'call').length;
    this.base += tail;
    this.tailText = '';
    this.readTail = 0;
    this.unread = false;
    this.lastUpdate = { settled: items, tail: [], wait: false };
    return this.lastUpdate;
  }

  /**
   * The reply has all come: its parts, read whole unless the tail is too long to read at once
   * (then as the last read left them; the turn's own parse follows).
   */
  finish(): ReplyParts {
    if (this.unread && this.tailText.length <= MAX_LIVE_TAIL) this.readTailText();
    return this.parts;
  }

  /** The parts of `text`, a reply in flight (a text that does not go on from the last starts afresh). */
  read(text: string): ReplyParts {
    if (text === this.full && !this.unread) return this.parts;
    if (!text.startsWith(this.full.slice(0, this.base))) this.reset();
    this.full = text;
    this.tailText = text.slice(this.base);
    this.readTailText();
    return this.parts;
  }

  /** Reads the tail: its parts, and the settled place moved on when the scan found one. */
  private readTailText(): void {
    const tail = this.tailText;
    const parsed = parseReply(tail);
    this.parsedChars += tail.length;
    this.readTail = tail.length;
    this.unread = false;
    this.last = undefined;
    const settled = parsed.settled;
    if (settled === undefined) {
      const tailParts = partsOf(this.replyId, tail, parsed, this.baseCalls);
      this.lastUpdate = { settled: [], tail: tailParts.items, wait: parsed.wait };
      return;
    }
    const before = parsed.items.filter((item) => item.end <= settled);
    const parts = partsOf(
      this.replyId,
      tail.slice(0, settled),
      { items: before, wait: false, text: '' },
      this.baseCalls,
    );
    this.baseParts = joinParts(this.baseParts, parts.items);
    this.baseCalls += before.length;
    this.base += settled;
    this.tailText = tail.slice(settled);
    this.readTail = this.tailText.length;
    // The tail as the next read will see it: the parts after the settled head.
    const shifted = {
      ...parsed,
      items: parsed.items
        .filter((i) => i.end > settled)
        .map((i) => ({ ...i, start: i.start - settled, end: i.end - settled })),
    };
    this.lastUpdate = {
      settled: parts.items,
      tail: partsOf(this.replyId, this.tailText, shifted, this.baseCalls).items,
      wait: parsed.wait,
    };
  }

  private reset(): void {
    this.full = '';
    this.tailText = '';
    this.base = 0;
    this.baseParts = [];
    this.baseCalls = 0;
    this.readTail = 0;
    this.unread = false;
    this.last = undefined;
    this.lastUpdate = { settled: [], tail: [], wait: false };
  }
}
