/**
 * HTML written by a document converter (mammoth's output for .docx) as Markdown: ATX
 * headings, `-` bullets, tables as Markdown tables (turndown leaves them as HTML), images as
 * `[image: alt text]` (never their data).
 */
import TurndownService from 'turndown';
import { markdownTable } from './markdownTable.js';

interface DomElement {
  readonly textContent: string | null;
  readonly nodeName: string;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export function htmlToMarkdown(html: string): string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) =>
      `\n\n${markdownTable(tableRows(node as unknown as DomElement))}\n\n`,
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node as unknown as DomElement).getAttribute('alt')?.trim();
      return alt ? `[image: ${alt}]` : '[image]';
    },
  });
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cells' text row by row; a cell's paragraphs are kept apart by line breaks. */
function tableRows(table: DomElement): string[][] {
  return Array.from(table.querySelectorAll('tr'), (row) =>
    Array.from(row.querySelectorAll('th, td'), (cell) => {
      const paragraphs = Array.from(cell.querySelectorAll('p'), (p) => p.textContent ?? '');
      return paragraphs.length > 0 ? paragraphs.join('\n') : (cell.textContent ?? '');
    }),
  );
}
