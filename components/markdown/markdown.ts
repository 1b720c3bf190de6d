/**
 * A reply's Markdown as styled lines, whole or while it streams. marked's lexer does the
 * parsing; blocks.ts draws the tokens.
 *
 * Streaming is incremental: blocks that can no longer change (a blank line and another
 * block follow them) are drawn once and kept, and each frame lexes only the text after
 * them, the unfinished tail. An unclosed fence or a table still growing is simply the last
 * block of the tail and is drawn as it stands.
 *
 * The end of a stream is drawn exactly as the whole text would be (`lines(text, width,
 * true)`): the tail is lexed knowing the link definitions of the settled text, a settled
 * block that uses a definition which arrives later is drawn again, and a long paragraph cut
 * into settled lines is lexed whole once more.
 */
import { marked, type Links, type Token, type Tokens } from 'marked';
import { blockLines, wrapInline, type Line } from './blocks.js';
import { highlighterVersion } from './highlightLoad.js';

export type { Line } from './blocks.js';

/**
 * marked's tokens for `text`, lexed as if `known` definitions stood before it, and every
 * definition it knows afterwards; undefined when it fails (then the text is shown plain).
 */
function lexWith(
  text: string,
  known: Readonly<Links> = {},
): { tokens: Token[]; links: Links } | undefined {
  try {
    const lexer = new marked.Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, known);
    const tokens = lexer.lex(text);
    return { tokens, links: { ...tokens.links } };
  } catch {
    return undefined;
  }
}

function plainLines(text: string, width: number): Line[] {
  return wrapInline([{ text }], width);
}

/** The lines of Markdown `text` at `width` columns. */
export function markdownLines(text: string, width: number): Line[] {
  const lexed = lexWith(text);
  return lexed ? blockLines(lexed.tokens, width) : plainLines(text, width);
}

/**
 * How many of `tokens` (the lexed `tail`) are settled: all before the last block, when a
 * blank line stands between them and it. (A block directly before the last one could still
 * merge with it, as a paragraph does with a following `---`.) After a list, the last block's
 * first line must be complete too: an unfinished `2` may yet become `2. item` of that list.
 */
function settledCount(tokens: readonly Token[], tail: string): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.type === 'space') last--;
  if (last < 1 || tokens[last - 1]!.type !== 'space') return 0;
  let before = last - 1;
  while (before >= 0 && tokens[before]!.type === 'space') before--;
  if (tokens[before]?.type !== 'list') return last;
  const start = tokens.slice(0, last).reduce((n, t) => n + t.raw.length, 0);
  return tail.indexOf('\n', start) >= 0 ? last : 0;
}

/**
 * A paragraph longer than this (no blank line yet) has its finished lines settled too, so a
 * reply that never leaves its first paragraph is not lexed in full every frame. (Emphasis
 * opened on a settled line and closed after it shows as typed until the end of the stream,
 * which lexes the paragraph whole.)
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

function sameDefinition(a: Links[string] | undefined, b: Links[string] | undefined): boolean {
  return a?.href === b?.href && a?.title === b?.title;
}

/** The labels `later` defines that `known` lacks or defines differently. */
function newDefinitions(known: Readonly<Links>, later: Readonly<Links>): string[] {
  return Object.keys(later).filter((k) => !sameDefinition(known[k], later[k]));
}

/** The definitions both know alike. */
function common(a: Readonly<Links>, b: Readonly<Links>): Links {
  const out: Links = {};
  for (const k of Object.keys(a)) if (sameDefinition(a[k], b[k])) out[k] = a[k]!;
  return out;
}

/** `known` and the definitions made in `tokens` (in lists and quotes too); the first wins. */
function definitionsIn(tokens: readonly Token[], known: Readonly<Links>): Links {
  const out: Links = { ...known };
  const walk = (list: readonly Token[]): void => {
    for (const t of list) {
      if (t.type === 'def') {
        const d = t as Tokens.Def;
        const tag = d.tag.toLowerCase().trim().replace(/\s+/g, ' ');
        out[tag] ??= { href: d.href, title: d.title };
      }
      if (t.type === 'list') walk((t as Tokens.List).items);
      else if ('tokens' in t && Array.isArray(t.tokens)) walk(t.tokens);
    }
  };
  walk(tokens);
  return out;
}

/**
 * Labels match case-insensitively by Unicode case folding: `[ẞ]` uses a definition
 * `[SS]` (lower then upper case folds ß and ẞ to SS alike).
 */
const caseFold = (s: string): string => s.toLowerCase().toUpperCase();

/** The settled part of a stream: its text (a prefix of every later text) and its lines. */
interface Settled {
  text: string;
  lines: Line[];
  /** The text ends inside a paragraph: what follows goes on without a blank line. */
  glue: boolean;
  /** The link definitions made in the text (the tail is lexed knowing them). */
  links: Links;
  /** The definitions every settled line was drawn with (some may come after the text). */
  drawnWith: Links;
}

const NOTHING: Settled = { text: '', lines: [], glue: false, links: {}, drawnWith: {} };

/** The lines of a reply that grows at its end, drawn a tail at a time. */
export class MarkdownStream {
  private width = -1;
  private version = -1;
  private settled: Settled = NOTHING;
  /** Where the settled text stood before a long paragraph was cut into it. */
  private beforeCut: Settled | undefined;
  /** Characters lexed in all (what the tests measure to show the work stays at the tail). */
  lexed = 0;

  /**
   * The lines of `text` at `width`; `text` usually extends the text of the last call.
   * `final`: the stream has ended, and the lines are those of the whole text.
   */
  lines(text: string, width: number, final = false): Line[] {
    if (
      width !== this.width ||
      this.version !== highlighterVersion() ||
      !text.startsWith(this.settled.text)
    )
      this.reset(width);
    if (final && this.beforeCut) this.unsettle(this.beforeCut);
    let lexed = this.lexTail(text);
    // While a definition is still being written (the last block) its address is not known
    // yet: the settled lines that use it are drawn again once it is, or at the end.
    const writing = !final && lexed?.tokens.findLast((t) => t.type !== 'space')?.type === 'def';
    if (lexed && !writing && this.laterDefinitionUsed(lexed.links)) {
      // A settled block may use a definition that only now arrived: draw it all again.
      this.reset(width);
      lexed = this.lexTail(text);
    }
    if (!lexed) return this.joined(plainLines(text.slice(this.settled.text.length), width));
    let rest = lexed.tokens;
    const settle = settledCount(rest, text.slice(this.settled.text.length));
    if (settle > 0) {
      this.settleBlocks(text, rest.slice(0, settle), lexed.links);
      rest = rest.slice(settle);
    }
    const cut = final ? 0 : paragraphCut(rest);
    if (cut > 0) {
      this.beforeCut ??= this.settled;
      const head = lexWith(rest[0]!.raw.slice(0, cut), this.settled.links);
      this.settle(head?.tokens ?? [], true, head?.links ?? this.settled.links);
      rest = this.lexTail(text)?.tokens ?? [];
    }
    return this.joined(blockLines(rest, width));
  }

  private reset(width: number): void {
    this.width = width;
    this.version = highlighterVersion();
    this.unsettle(NOTHING);
  }

  private unsettle(to: Settled): void {
    this.settled = to;
    this.beforeCut = undefined;
  }

  /** Whether the tail defines a label the settled text may already use. */
  private laterDefinitionUsed(links: Readonly<Links>): boolean {
    const settledText = caseFold(this.settled.text);
    if (!settledText.includes('[')) return false;
    return newDefinitions(this.settled.drawnWith, links).some((label) =>
      settledText.includes(caseFold(label.split(/\s+/)[0]!)),
    );
  }

  private lexTail(text: string): { tokens: Token[]; links: Links } | undefined {
    const tail = text.slice(this.settled.text.length);
    this.lexed += tail.length;
    return lexWith(tail, this.settled.links);
  }

  /**
   * Keeps the finished blocks `done`. A long paragraph cut into settled lines ends among
   * them: it is lexed again whole, from where it started, so its emphasis and links are
   * drawn as in the whole text.
   */
  private settleBlocks(text: string, done: readonly Token[], links: Links): void {
    const before = this.beforeCut;
    if (!before) return this.settle(done, false, links);
    const end = this.settled.text.length + done.reduce((n, t) => n + t.raw.length, 0);
    const whole = text.slice(before.text.length, end);
    this.lexed += whole.length;
    const again = lexWith(whole, before.links);
    if (!again) return this.settle(done, false, links);
    this.unsettle(before);
    this.settle(again.tokens, false, again.links);
  }

  /** Keeps the lines of `done`, which the text continues after. */
  private settle(done: readonly Token[], glue: boolean, links: Links): void {
    const prev = this.settled;
    this.settled = {
      lines: this.joined(blockLines(done, this.width)),
      text: prev.text + done.map((t) => t.raw).join(''),
      glue,
      links: definitionsIn(done, prev.links),
      drawnWith: prev.lines.length > 0 ? common(prev.drawnWith, links) : links,
    };
  }

  /** The settled lines followed by `more` (a blank line between, unless glued). */
  private joined(more: readonly Line[]): Line[] {
    const { lines, glue } = this.settled;
    if (more.length === 0) return lines;
    if (lines.length === 0) return more.slice();
    return [...lines, ...(glue ? [] : [[]]), ...more];
  }
}
