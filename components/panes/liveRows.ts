/**
 * The rows of the reply being streamed. Each stretch of its text keeps a Markdown stream,
 * so an update lexes and draws only the unfinished tail, not the whole reply again (20K
 * CJK characters cost ~20 ms per frame when rewrapped in full).
 */
import type { Lang } from '../../src/i18n/messages.js';
import { MarkdownStream } from '../markdown/markdown.js';
import { agentRows } from './conversation.js';
import type { Row } from './rows.js';

export class LiveRows {
  private width = -1;
  private streams: MarkdownStream[] = [];
  private last:
    { text: string; cursor: boolean; lang: Lang; width: number; rows: Row[] } | undefined;

  /** The rows of `text` at `width`, with the streaming cursor when `cursor`. */
  rows(text: string, width: number, lang: Lang, cursor: boolean): Row[] {
    const l = this.last;
    if (l && l.text === text && l.cursor === cursor && l.lang === lang && l.width === width)
      return l.rows;
    if (width !== this.width) {
      this.width = width;
      this.streams = [];
    }
    const rows = agentRows(text, width, { lang, cursor }, (t, w, i) =>
      (this.streams[i] ??= new MarkdownStream()).lines(t, w),
    );
    this.last = { text, cursor, lang, width, rows };
    return rows;
  }

  /** Characters lexed in all (the cost the tests measure). */
  get work(): number {
    return this.streams.reduce((n, s) => n + (s?.lexed ?? 0), 0);
  }
}
