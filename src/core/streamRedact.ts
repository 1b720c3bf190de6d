/**
 * Redaction for text that arrives in pieces (the model's streamed reply): a key split over
 * two deltas must be caught too, so the tail that could still be the start of a secret is
 * held back until more text arrives or the stream ends.
 */
import type { Redactor } from './redact.js';

/** Room for whitespace a key may be split with, on top of the key's own length. */
const SLACK = 32;

/** Feeds deltas through a {@link Redactor}; `push` and `flush` return what is safe to show. */
export class StreamRedactor {
  private pending = '';
  private readonly hold: number;

  constructor(private readonly redactor: Redactor) {
    this.hold = redactor.empty ? 0 : redactor.longest + SLACK;
  }

  /** Adds a delta; returns the redacted text that can be shown now (maybe empty). */
  push(delta: string): string {
    if (this.hold === 0) return delta;
    this.pending += delta;
    let cut = this.pending.length - this.hold;
    if (cut <= 0) return '';
    // Never cut through a secret found in the buffer: hold it back whole.
    for (const [a, b] of this.redactor.ranges(this.pending)) {
      if (a < cut && cut < b) cut = a;
    }
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redactor.redact(ready);
  }

  /** The stream ended: the rest, redacted. */
  flush(): string {
    const rest = this.redactor.redact(this.pending);
    this.pending = '';
    return rest;
  }
}
