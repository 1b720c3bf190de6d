/**
 * Rich Text Format (.rtf) read by a small tokenizer: the body text with its paragraphs,
 * headings (paragraphs with an outline level), tables (`\cell`, `\row`) as Markdown tables,
 * field results (link text), Unicode (`\uN` with its fallback skipped) and 8-bit text in the
 * document's code page (`\ansicpg`); the `\info` group gives title, author and dates.
 * Font, colour and style tables, pictures, embedded objects and headers are skipped. Groups
 * are kept on an explicit stack, so deep nesting cannot overflow the call stack.
 */
import { decodeCodepage } from './codepage.js';
import { markdownTable } from './markdownTable.js';
import { wordDocument } from './wordParts.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';

/** Destinations whose content is not body text. */
const SKIPPED = new Set(
  (
    'fonttbl colortbl stylesheet pict object objdata header headerl headerr headerf footer ' +
    'footerl footerr footerf fldinst themedata colorschememapping latentstyles datastore ' +
    'xmlnstbl listtable listoverridetable rsidtbl generator mmathPr pgdsctbl filetbl revtbl ' +
    'info bkmkstart bkmkend xe tc private userprops docvar wgrffmtfilter'
  ).split(' '),
);
const INFO_FIELDS: Readonly<Record<string, string>> = {
  title: 'Title',
  subject: 'Subject',
  author: 'Author',
  creatim: 'Created',
  revtim: 'Modified',
};
const MAX_DEPTH = 10_000;

interface Group {
  skip: boolean;
  uc: number;
  /** The `\info` field this group is the value of. */
  info?: string;
}

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const source = new TextDecoder('latin1').decode(input.bytes);
  if (!source.startsWith('{\\rtf')) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not an RTF document: it does not start with "{\\rtf".`,
    );
  }
  const { markdown, meta } = rtfToMarkdown(source, input.name);
  const notes = markdown ? [] : ['The document has no text.'];
  return wordDocument(input, { kind: 'rtf', label: 'RTF document', meta }, markdown, notes);
}

export function rtfToMarkdown(
  source: string,
  name: string,
): { markdown: string; meta: Array<[string, string]> } {
  return new RtfReader(source, name).read();
}

/** One pass over the source; state is the group stack and the paragraph being built. */
class RtfReader {
  private codepage = 1252;
  private readonly stack: Group[] = [];
  private group: Group = { skip: false, uc: 1 };
  private readonly blocks: string[] = [];
  private readonly info = new Map<string, string>();
  private readonly dates = new Map<string, Record<string, number>>();
  private line = '';
  private bytes: number[] = [];
  private inTable = false;
  private outline = -1;
  private style = -1;
  private cells: string[] = [];
  private rows: string[][] = [];
  private skipChars = 0;
  private readonly headingStyles: Map<number, number>;

  constructor(
    private readonly source: string,
    private readonly name: string,
  ) {
    this.headingStyles = headingLevels(source);
  }

  read(): { markdown: string; meta: Array<[string, string]> } {
    const { source } = this;
    let i = 0;
    while (i < source.length) {
      const c = source[i] as string;
      if (c === '{' || c === '}') {
        this.flushBytes();
        if (c === '{') this.open();
        else this.group = this.stack.pop() ?? this.group;
        i++;
      } else if (c === '\r' || c === '\n') {
        i++;
      } else if (c !== '\\') {
        if (this.skipChars > 0) this.skipChars--;
        else this.emitText(c);
        i++;
      } else {
        i = this.escape(i);
      }
    }
    this.flushBytes();
    this.inTable = false;
    this.endParagraph();
    this.flushTable();
    return { markdown: this.blocks.join('\n\n'), meta: this.meta() };
  }

  private open(): void {
    if (this.stack.length >= MAX_DEPTH) {
      throw new DocumentError(
        'malformed',
        `"${this.name}" is malformed: its groups nest deeper than ${MAX_DEPTH}.`,
      );
    }
    this.stack.push(this.group);
    this.group = { ...this.group, info: undefined };
  }

  /** A backslash at `i`: a hex byte, a control symbol or a control word. Returns the next index. */
  private escape(i: number): number {
    const { source } = this;
    const next = source[i + 1] ?? '';
    if (next === "'") {
      const byte = parseInt(source.slice(i + 2, i + 4), 16);
      if (this.skipChars > 0) this.skipChars--;
      else if (!Number.isNaN(byte)) this.bytes.push(byte);
      return i + 4;
    }
    const word = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(source.slice(i + 1, i + 48));
    if (!word) {
      // \\ \{ \} are literal; \~ a no-break space; \* marks an ignorable destination.
      if (next === '*') this.group.skip = true;
      else if (next === '~') this.emitText('\u00a0');
      else if (next === '\\' || next === '{' || next === '}') this.emitText(next);
      else if (next === '\n' || next === '\r') this.endParagraph();
      return i + 2;
    }
    const control = word[1] as string;
    const param = word[2] === undefined ? undefined : Number(word[2]);
    const after = i + 1 + word[0].length;
    if (control === 'bin') return after + Math.max(0, param ?? 0);
    this.control(control, param);
    return after;
  }

  private control(control: string, param: number | undefined): void {
    if (control !== 'u') this.flushBytes();
    if (SKIPPED.has(control)) {
      this.group.skip = control !== 'info';
      return;
    }
    if (control in INFO_FIELDS && this.stack.length > 0) {
      this.group.info = control;
      if (control === 'creatim' || control === 'revtim') this.dates.set(control, {});
      return;
    }
    const symbol = SYMBOLS[control];
    if (symbol !== undefined) return this.emit(symbol);
    switch (control) {
      case 'ansicpg':
        this.codepage = param ?? 1252;
        break;
      case 'uc':
        this.group.uc = param ?? 1;
        break;
      case 'u':
        this.flushBytes();
        if (param !== undefined) this.emit(String.fromCharCode(param < 0 ? param + 65536 : param));
        this.skipChars = this.group.uc;
        break;
      case 'yr':
      case 'mo':
      case 'dy':
      case 'hr':
      case 'min': {
        const date = [...this.dates.values()].pop();
        if (date && param !== undefined) date[control] = param;
        break;
      }
      case 'par':
      case 'sect':
        this.endParagraph();
        break;
      case 'pard':
        this.inTable = false;
        this.outline = -1;
        this.style = -1;
        break;
      case 's':
        this.style = param ?? -1;
        break;
      case 'intbl':
        this.inTable = true;
        break;
      case 'outlinelevel':
        this.outline = param ?? -1;
        break;
      case 'cell':
        this.cells.push(this.line.trim());
        this.line = '';
        break;
      case 'row':
        this.rows.push(this.cells);
        this.cells = [];
        this.line = '';
        break;
    }
  }

  private emitText(text: string): void {
    this.flushBytes();
    this.emit(text);
  }

  private emit(text: string): void {
    if (this.group.info) {
      this.info.set(this.group.info, (this.info.get(this.group.info) ?? '') + text);
    } else if (!this.group.skip) {
      this.line += text;
    }
  }

  /** 8-bit bytes (\\'hh) gathered so far, decoded together: a double-byte character spans two. */
  private flushBytes(): void {
    if (this.bytes.length === 0) return;
    const text = decodeCodepage(Uint8Array.from(this.bytes), this.codepage);
    this.bytes = [];
    this.emit(text);
  }

  private flushTable(): void {
    if (this.rows.length > 0) this.blocks.push(markdownTable(this.rows));
    this.rows = [];
  }

  private endParagraph(): void {
    this.flushBytes();
    if (this.inTable) {
      this.line += '\n';
      return;
    }
    this.flushTable();
    const text = this.line
      .trim()
      .replace(/^[\u2022\u00B7\u25AA\u25E6\u2013-]\t/, '- ')
      .replace(/^(\d+[.)])\t/, '$1 ');
    const level = this.outline >= 0 ? this.outline : (this.headingStyles.get(this.style) ?? -1);
    if (text) this.blocks.push(level >= 0 ? `${'#'.repeat(Math.min(6, level + 1))} ${text}` : text);
    this.line = '';
  }

  private meta(): Array<[string, string]> {
    const meta: Array<[string, string]> = [];
    for (const [control, label] of Object.entries(INFO_FIELDS)) {
      const date = this.dates.get(control);
      const value = date ? formatDate(date) : this.info.get(control)?.trim();
      if (value) meta.push([label, value]);
    }
    return meta;
  }
}

/** Control words that stand for one character. */
const SYMBOLS: Readonly<Record<string, string>> = {
  line: '\n',
  tab: '\t',
  emdash: '—',
  endash: '–',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
};

/**
 * Paragraph styles that are headings, by style number: those with an outline level, or
 * named "heading N" in the style sheet (`{\s1 … Heading 1;}`), as 0-based levels.
 */
function headingLevels(source: string): Map<number, number> {
  const levels = new Map<number, number>();
  for (const m of source.matchAll(/\{\\s(\d+)([^;{}]*);/g)) {
    const body = m[2] ?? '';
    const outline = /\\outlinelevel(\d)/.exec(body);
    const named = /(?:^|\s)heading (\d)\s*$/i.exec(body.replace(/\\[a-z]+-?\d* ?/gi, ' '));
    const level = outline ? Number(outline[1]) : named ? Number(named[1]) - 1 : -1;
    if (level >= 0) levels.set(Number(m[1]), level);
  }
  return levels;
}

function formatDate(d: Record<string, number>): string | undefined {
  if (!d['yr']) return undefined;
  const two = (n: number | undefined): string => String(n ?? 0).padStart(2, '0');
  const day = `${d['yr']}-${two(d['mo'] ?? 1)}-${two(d['dy'] ?? 1)}`;
  return d['hr'] !== undefined ? `${day} ${two(d['hr'])}:${two(d['min'])}` : day;
}
