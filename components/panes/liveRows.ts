/**
 * The rows of the reply being streamed. Each stretch of its text keeps a Markdown stream,
 * so an update lexes and draws only the unfinished tail, not the whole reply again (20K
 * CJK characters cost ~20 ms per frame when rewrapped in full).
 */
import type { ReplyParts } from '../../src/core/messages.js';
import type { Lang } from '../../src/i18n/messages.js';
import { MarkdownStream } from '../markdown/markdown.js';
import { agentRows, type SegmentRender } from './conversation.js';
import type { Row } from './rows.js';

export class LiveRows {
  private width = -1;
  private streams: MarkdownStream[] = [];
  private last:
    { text: string; cursor: boolean; lang: Lang; width: number; rows: Row[] } | undefined;
  /** Characters lexed by streams handed over by `adopt` (they count in `work`). */
  private adopted = 0;

  /**
   * The rows of `text` (read into `parts` by the turn's reader) at `width`, with the
   * streaming cursor when `cursor`. Without it the reply is not growing any more (it has
   * all come, or was cut short): drawn whole, as the saved message will be.
   */
  rows(text: string, parts: ReplyParts, width: number, lang: Lang, cursor: boolean): Row[] {
    const l = this.last;
    if (l && l.text === text && l.cursor === cursor && l.lang === lang && l.width === width)
      return l.rows;
    if (width !== this.width) {
      this.width = width;
      this.streams = [];
    }
    const rows = agentRows(parts, width, { lang, cursor }, (t, w, i) =>
      (this.streams[i] ??= new MarkdownStream()).lines(t, w, !cursor),
    );
    this.last = { text, cursor, lang, width, rows };
    return rows;
  }

  /**
   * The segment renderer for the saved message this live reply became, drawn at `width`:
   * its streams, which have the text up to the last frame lexed and drawn already, so the
   * message costs only its tail (a long reply lexed in full at the end of its stream was a
   * long frame right after an interrupt). Undefined when `content` does not continue the
   * text drawn last at that width (then the message is parsed afresh). Taken once: the
   * next live reply starts with fresh streams.
   */
  adopt(content: string, width: number): SegmentRender | undefined {
    const l = this.last;
    if (!l || l.width !== width || l.text === '' || !content.startsWith(l.text)) return undefined;
    const streams = this.streams;
    this.streams = [];
    this.last = undefined;
    this.adopted += streams.reduce((n, s) => n + (s?.lexed ?? 0), 0);
    return (t, w, i) => {
      const stream = (streams[i] ??= new MarkdownStream());
      const before = stream.lexed;
      // The saved message: drawn as the whole text would be (the stream has ended).
      const lines = stream.lines(t, w, true);
      this.adopted += stream.lexed - before;
      return lines;
    };
  }

  /** Characters lexed in all (the cost the tests measure). */
  get work(): number {
    return this.adopted + this.streams.reduce((n, s) => n + (s?.lexed ?? 0), 0);
  }
}
