/**
 * A reply's Markdown as styled lines, whole or while it streams. marked's lexer does the
 * parsing; blocks.ts draws the tokens.
 *
 * Streaming is incremental: blocks that can no longer change (a blank line and another
 * block follow them) are drawn once and kept, and each frame lexes only the text after
 * them, the unfinished tail. An unclosed fence or a table still growing is simply the last
 * block of the tail and is drawn as it stands.
 */
import { marked, type Token } from 'marked';
import { blockLines, wrapInline, type Line } from './blocks.js';
import { highlighterVersion } from './highlightLoad.js';

export type { Line } from './blocks.js';

/** marked's tokens for `text`, or undefined when it fails (then the text is shown plain). */
function lex(text: string): Token[] | undefined {
  try {
    return marked.lexer(text, { gfm: true });
  } catch {
    return undefined;
  }
}

function plainLines(text: string, width: number): Line[] {
  return wrapInline([{ text }], width);
}

/** The lines of Markdown `text` at `width` columns. */
export function markdownLines(text: string, width: number): Line[] {
  const tokens = lex(text);
  return tokens ? blockLines(tokens, width) : plainLines(text, width);
}

/**
 * How many of `tokens` are settled: all before the last block, when a blank line stands
 * between them and it (a block directly before the last one could still merge with it, as a
 * paragraph does with a following `---`).
 */
function settledCount(tokens: readonly Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.type === 'space') last--;
  if (last < 1 || tokens[last - 1]!.type !== 'space') return 0;
  return last;
}

/**
 * A paragraph longer than this (no blank line yet) has its finished lines settled too, so a
 * reply that never leaves its first paragraph is not lexed in full every frame. (Emphasis
 * opened on a settled line and closed after it then shows as typed: a rare, harmless cost.)
 */
const PARAGRAPH_CUT = 1024;

/** Where a long paragraph at the start of `rest` may be cut: after its last finished line. */
function paragraphCut(rest: readonly Token[]): number {
  const blocks = rest.filter((t) => t.type !== 'space');
  const para = rest[0];
  if (blocks.length !== 1 || para?.type !== 'paragraph' || para.raw.length <= PARAGRAPH_CUT)
    return 0;
  return para.raw.lastIndexOf('\n', para.raw.length - 2) + 1;
}

/** The lines of a reply that grows at its end, drawn a tail at a time. */
export class MarkdownStream {
  private width = -1;
  private version = -1;
  /** The settled text (a prefix of every later text) and its lines. */
  private settledText = '';
  private settledLines: Line[] = [];
  /** The settled text ends inside a paragraph: what follows goes on without a blank line. */
  private glue = false;
  /** Characters lexed in all (what the tests measure to show the work stays at the tail). */
  lexed = 0;

  /** The lines of `text` at `width`; `text` usually extends the text of the last call. */
  lines(text: string, width: number): Line[] {
    if (
      width !== this.width ||
      this.version !== highlighterVersion() ||
      !text.startsWith(this.settledText)
    )
      this.reset(width);
    let rest = this.lexTail(text);
    if (!rest) {
      return this.joined(plainLines(text.slice(this.settledText.length), width));
    }
    const settle = settledCount(rest);
    if (settle > 0) {
      this.settle(rest.slice(0, settle), false);
      rest = rest.slice(settle);
    }
    const cut = paragraphCut(rest);
    if (cut > 0) {
      this.settle(lex(rest[0]!.raw.slice(0, cut)) ?? [], true);
      rest = this.lexTail(text) ?? [];
    }
    return this.joined(blockLines(rest, width));
  }

  private reset(width: number): void {
    this.width = width;
    this.version = highlighterVersion();
    this.settledText = '';
    this.settledLines = [];
    this.glue = false;
  }

  private lexTail(text: string): Token[] | undefined {
    const tail = text.slice(this.settledText.length);
    this.lexed += tail.length;
    return lex(tail);
  }

  /** Keeps the lines of `done`, which the text continues after. */
  private settle(done: readonly Token[], glue: boolean): void {
    this.settledLines = this.joined(blockLines(done, this.width));
    this.settledText += done.map((t) => t.raw).join('');
    this.glue = glue;
  }

  /** The settled lines followed by `more` (a blank line between, unless glued). */
  private joined(more: readonly Line[]): Line[] {
    if (more.length === 0) return this.settledLines;
    if (this.settledLines.length === 0) return more.slice();
    return [...this.settledLines, ...(this.glue ? [] : [[]]), ...more];
  }
}
