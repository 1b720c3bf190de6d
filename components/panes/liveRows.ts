/**
 * The rows of the reply being streamed. Each stretch of its text keeps a growing wrapper, so
 * an update wraps only the new characters, not the whole reply again (20K CJK characters
 * cost ~20 ms per frame when rewrapped in full).
 */
import type { Lang } from '../../src/i18n/messages.js';
import { GrowingWrap } from '../text/growingWrap.js';
import { agentRows } from './conversation.js';
import type { Row } from './rows.js';

export class LiveRows {
  private width = -1;
  private wraps: GrowingWrap[] = [];
  private last:
    { text: string; cursor: boolean; lang: Lang; width: number; rows: Row[] } | undefined;

  /** The rows of `text` at `width`, with the streaming cursor when `cursor`. */
  rows(text: string, width: number, lang: Lang, cursor: boolean): Row[] {
    const l = this.last;
    if (l && l.text === text && l.cursor === cursor && l.lang === lang && l.width === width)
      return l.rows;
    if (width !== this.width) {
      this.width = width;
      this.wraps = [];
    }
    const rows = agentRows(text, width, { lang, cursor }, (t, w, i) =>
      (this.wraps[i] ??= new GrowingWrap(w)).wrap(t),
    );
    this.last = { text, cursor, lang, width, rows };
    return rows;
  }

  /** Graphemes wrapped in all (the cost the tests measure). */
  get work(): number {
    return this.wraps.reduce((n, w) => n + (w?.work ?? 0), 0);
  }
}
