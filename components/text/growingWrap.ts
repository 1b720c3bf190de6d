/**
 * Wraps a text that grows at its end (a reply or reasoning while it streams) a delta at a
 * time: finished lines keep their rows, and the line being written continues from where
 * the last call stopped. The rows are exactly `wrapText(text, width)`; only the work differs,
 * which stays proportional to what was added instead of to the whole text.
 */
import { LineWrap } from './lineWrap.js';
import { graphemes } from './width.js';

export class GrowingWrap {
  /** Graphemes wrapped in all: what the tests measure the cost of an update by. */
  work = 0;
  private text = '';
  private done: string[] = [];
  private line: LineWrap;
  /** The line's last grapheme, held back: the next delta may extend it (a combining mark). */
  private held = '';
  private rows: string[] | undefined;

  constructor(private readonly width: number) {
    this.line = new LineWrap(width);
  }

  /** The rows of `text`; cheap when `text` is the previous text with more at its end. */
  wrap(text: string): string[] {
    if (text === this.text && this.rows) return this.rows;
    if (!text.startsWith(this.text)) this.reset();
    let added = text.slice(this.text.length);
    this.text = text;
    for (let nl = added.indexOf('\n'); nl !== -1; nl = added.indexOf('\n')) {
      this.feed(added.slice(0, nl));
      if (this.held !== '') this.line.push(this.held);
      for (const row of this.line.rows()) this.done.push(row);
      this.line = new LineWrap(this.width);
      this.held = '';
      added = added.slice(nl + 1);
    }
    this.feed(added);
    const current = this.held !== '' ? this.line.rowsWith(this.held) : this.line.rows();
    this.rows = this.done.length > 0 ? this.done.concat(current) : current;
    return this.rows;
  }

  private feed(s: string): void {
    if (s === '') return;
    const gs = graphemes(this.held + s);
    this.work += gs.length;
    this.held = gs.pop() ?? '';
    for (const g of gs) this.line.push(g);
  }

  private reset(): void {
    this.text = '';
    this.done = [];
    this.line = new LineWrap(this.width);
    this.held = '';
    this.rows = undefined;
  }
}
