/**
 * HTML and XML as the document readers need them. HTML (a chapter, a mail body, a feed
 * summary, mammoth's rendering of a .docx, a notebook's HTML output) becomes Markdown through
 * turndown, with tables as Markdown tables and images
 * named, never inlined (a `data:` image would put megabytes of base64 before the model). XML
 * (an EPUB's package file, a feed) is parsed by cheerio in XML mode, which never expands an
 * entity the document declares itself: a "billion laughs" stays a few hundred bytes of text.
 */
import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import TurndownService from 'turndown';
import { markdownTable } from './markdownTable.js';

/** A DOCTYPE with or without an internal subset (`[ <!ENTITY …> ]`). */
const DOCTYPE = /<!DOCTYPE[^[>]*(\[[\s\S]*?\]\s*)?>/gi;

/** `<?xml version="1.0"?>`: HTML parsers take it for text. */
const XML_DECLARATION = /^\s*<\?xml[^>]*\?>/;

/** True when the text declares its own entities (the way entity-expansion attacks start). */
export function declaresEntities(text: string): boolean {
  return /<!ENTITY/i.test(text);
}

/** Parses XML; a DOCTYPE (and any entity it declares) is dropped unread. */
export function loadXml(xml: string): CheerioAPI {
  return load(xml.replace(DOCTYPE, ''), { xml: { xmlMode: true, decodeEntities: true } });
}

/** The little of the DOM the rules use (turndown hands them domino's elements). */
interface DomElement {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  readonly textContent: string | null;
}

/** Text of XML or XHTML bytes: UTF-8 unless its XML declaration names another encoding. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /encoding=["']([\w-]+)["']/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

let service: TurndownService | undefined;

/** Markdown of an HTML document or fragment: ATX headings, fenced code, tables, images named. */
export function htmlToMarkdown(html: string): string {
  service ??= makeService();
  return service
    .turndown(html.replace(XML_DECLARATION, '').replace(DOCTYPE, ''))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text of an HTML fragment with the markup gone, on one line (titles, list cells). */
export function htmlToLine(html: string): string {
  return load(html).root().text().replace(/\s+/g, ' ').trim();
}

function makeService(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'head', 'title', 'object']);
  turndown.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const image = node as unknown as DomElement;
      const src = image.getAttribute('src') ?? '';
      const alt = (image.getAttribute('alt') ?? '').trim();
      const where = src.startsWith('data:')
        ? `embedded ${src.slice(5, src.indexOf(';') > 0 ? src.indexOf(';') : 30)}`
        : src.split(/[?#]/)[0]!.replace(/^(\.\.\/)+/, '');
      return `[image: ${[alt, where].filter(Boolean).join(', ') || 'unnamed'}]`;
    },
  });
  turndown.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => `\n\n${tableMarkdown(node as unknown as DomElement)}\n\n`,
  });
  return turndown;
}

/**
 * A table's rows as a Markdown table; the first row is the header (as most tables have it).
 * A cell's paragraphs stay apart (as `<br>`); whitespace inside each is one space.
 */
function tableMarkdown(table: DomElement): string {
  const line = (node: DomElement): string => (node.textContent ?? '').replace(/\s+/g, ' ').trim();
  const rows = Array.from(table.querySelectorAll('tr'), (row) =>
    Array.from(row.querySelectorAll('th, td'), (cell) => {
      const paragraphs = Array.from(cell.querySelectorAll('p'), line);
      return paragraphs.length > 0 ? paragraphs.join('\n') : line(cell);
    }),
  );
  return markdownTable(rows);
}
