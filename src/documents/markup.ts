/**
 * HTML as the document readers need it: HTML (a chapter, a mail body, a feed summary,
 * mammoth's rendering of a .docx, a notebook's HTML output) becomes Markdown through
 * turndown, with tables as Markdown tables and images named, never inlined (a `data:` image
 * would put megabytes of base64 before the model). XML is loaded in xmlTree.ts.
 */
import { load } from 'cheerio';
import TurndownService from 'turndown';
import { markdownTable } from './markdownTable.js';
import { DOCTYPE } from './xmlTree.js';

/** `<?xml version="1.0"?>`: HTML parsers take it for text. */
const XML_DECLARATION = /^\s*<\?xml[^>]*\?>/;

/** The little of the DOM the rules use (turndown hands them domino's elements). */
interface DomElement {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  readonly textContent: string | null;
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
