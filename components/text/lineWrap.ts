/**
 * The greedy line-breaking step behind `wrapLine`, fed one grapheme at a time. A row, once
 * pushed, never changes when more text follows: that is what lets a streaming reply be
 * wrapped a delta at a time (see growingWrap.ts) with the same rows as a full wrap.
 */
import { graphemeWidth } from './width.js';

/** The row being filled and its last break opportunity. */
interface Cursor {
  cur: string;
  curW: number;
  /** The last place `cur` may be broken: index into `cur` and the width before it. */
  breakAt: number;
  breakW: number;
}

export class LineWrap {
  private readonly done: string[] = [];
  private c: Cursor = { cur: '', curW: 0, breakAt: -1, breakW: 0 };

  constructor(private readonly width: number) {}

  /** Adds one grapheme (its width is measured unless given). */
  push(g: string, gw: number = graphemeWidth(g)): void {
    step(this.c, g, gw, this.width, this.done);
  }

  /** The rows so far, the one being filled included; never empty. */
  rows(): string[] {
    return finish(this.done, this.c);
  }

  /** The rows as if `g` were pushed too, without pushing it (for a held-back last grapheme). */
  rowsWith(g: string): string[] {
    const extra: string[] = [];
    const c = { ...this.c };
    step(c, g, graphemeWidth(g), this.width, extra);
    return finish(extra.length > 0 ? this.done.concat(extra) : this.done, c);
  }
}

function finish(done: readonly string[], c: Cursor): string[] {
  return c.cur !== '' || done.length === 0 ? [...done, c.cur] : done.slice();
}

function step(c: Cursor, g: string, gw: number, w: number, out: string[]): void {
  if (c.curW + gw > w && c.cur !== '') {
    if (g === ' ') {
      // A space at the edge becomes the line break itself.
      out.push(c.cur);
      c.cur = '';
      c.curW = 0;
      c.breakAt = -1;
      return;
    }
    if (c.breakAt > 0) {
      out.push(c.cur.slice(0, c.breakAt).trimEnd());
      c.cur = c.cur.slice(c.breakAt);
      c.curW -= c.breakW;
    } else {
      out.push(c.cur);
      c.cur = '';
      c.curW = 0;
    }
    c.breakAt = -1;
  }
  if (gw >= 2 && c.cur !== '') {
    c.breakAt = c.cur.length;
    c.breakW = c.curW;
  }
  c.cur += g;
  c.curW += gw;
  if (g === ' ' || gw >= 2) {
    c.breakAt = c.cur.length;
    c.breakW = c.curW;
  }
}
