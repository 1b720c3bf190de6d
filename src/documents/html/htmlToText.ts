/**
 * HTML to text, links and Markdown, over cheerio and turndown. Tool code reaches this module
 * only through `loadPageReader()` (lazy.ts): importing it loads both libraries.
 */
import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import TurndownService from 'turndown';
import { markdownTable } from '../markdownTable.js';
import { cleanInline } from './inline.js';
import { TextBuilder } from './textBuilder.js';

/** A link found on the page, already absolute. */
export interface PageLink {
  text: string;
  url: string;
}

/** Page furniture and non-content: dropped before the text is taken. */
const DROP =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, footer, ' +
  '[role="navigation"], [hidden], [aria-hidden="true"], [style*="display:none"], [style*="display: none"]';
/** Links inside these come after the content's own links: they are the site's chrome. */
const CHROME = 'nav, footer, header, aside, [role="navigation"]';

/** Elements that start and end a line of text. */
const BLOCK = new Set(
  (
    'address article aside blockquote body center dd details dialog div dl dt fieldset ' +
    'figcaption figure form header hgroup html legend main menu ol option section summary ' +
    'table tbody tfoot thead ul'
  ).split(' '),
);
/** Elements that stand apart with a blank line around them. */
const PARAGRAPH = new Set('p blockquote table ul ol dl figure hr section article'.split(' '));
const HEADING = /^h([1-6])$/;

/**
 * Parses the HTML and returns the document, its title (`<title>`, else the first `<h1>`)
 * and the base URL links resolve against (`<base href>`, else the page's own address).
 */
export function loadPage(html: string, pageUrl: URL): { $: CheerioAPI; title: string; base: URL } {
  const $ = load(html);
  const base = resolveBase($('base[href]').first().attr('href'), pageUrl);
  const title = cleanInline($('title').first().text()) || cleanInline($('h1').first().text());
  return { $, title, base };
}

/**
 * Collects up to `max` distinct http(s) links, content links first and navigation/footer
 * links after them, skipping in-page anchors and `javascript:` / `mailto:` targets.
 */
export function collectLinks($: CheerioAPI, base: URL, pageUrl: URL, max: number): PageLink[] {
  const content: PageLink[] = [];
  const chrome: PageLink[] = [];
  const seen = new Set<string>([withoutHash(pageUrl)]);
  $('a[href]').each((_, element) => {
    const anchor = $(element);
    const url = absolute(anchor.attr('href'), base);
    if (url === undefined) return;
    const key = withoutHash(url);
    if (seen.has(key)) return;
    seen.add(key);
    const text =
      cleanInline(anchor.text()) ||
      cleanInline(
        anchor.attr('title') ?? anchor.attr('aria-label') ?? anchor.find('img').attr('alt') ?? '',
      );
    const link = { text: text.length > 100 ? `${text.slice(0, 99)}…` : text, url: url.href };
    (anchor.closest(CHROME).length > 0 ? chrome : content).push(link);
  });
  return [...content, ...chrome].slice(0, max);
}

/** Removes non-content elements and makes links and images absolute, in place. */
export function cleanDocument($: CheerioAPI, base: URL): void {
  $(DROP).remove();
  $('a[href]').each((_, element) => {
    const url = absolute($(element).attr('href'), base);
    if (url !== undefined) $(element).attr('href', url.href);
  });
  $('img[src]').each((_, element) => {
    const url = absolute($(element).attr('src'), base);
    if (url !== undefined) $(element).attr('src', url.href);
  });
}

/**
 * Readable plain text of a cleaned document (headings keep a `#` mark). `root` picks the
 * element to read (the body by default); `null`, or a selector that matches nothing, reads
 * everything, which is what a fragment loaded without `<body>` needs.
 */
export function htmlToText($: CheerioAPI, root: string | null = 'body'): string {
  const out = new TextBuilder();
  const start = root === null ? undefined : $(root);
  const nodes =
    start !== undefined && start.length > 0 ? start.toArray() : $.root().contents().toArray();
  for (const node of nodes) walk(node, out);
  return out.toString();
}

/** Markdown of cleaned HTML via turndown (ATX headings, fenced code, `-` bullets). */
export function htmlToMarkdown(html: string): string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe']);
  service.addRule('table', { filter: 'table', replacement: (_, node) => tableMarkdown(node) });
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The DOM fields turndown's nodes give that a table needs. */
interface TableNode {
  querySelectorAll(selector: string): ArrayLike<TableNode>;
  readonly children: ArrayLike<TableNode>;
  readonly nodeName: string;
  readonly textContent: string | null;
}

/**
 * A table as a Markdown table (markdownTable.ts): its first row is the header, a cell's text
 * on one line. Rows of nested tables are left to their own table.
 */
function tableMarkdown(node: unknown): string {
  const table = node as TableNode;
  const rows = Array.from(table.querySelectorAll('tr'))
    .map((tr) =>
      Array.from(tr.children)
        .filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH')
        .map((c) => cleanInline(c.textContent ?? '')),
    )
    .filter((cells) => cells.length > 0);
  return rows.length === 0 ? '' : `\n\n${markdownTable(rows)}\n\n`;
}

function walk(node: AnyNode, out: TextBuilder): void {
  if (node.type === 'text') {
    out.text(node.data);
    return;
  }
  if (node.type !== 'tag') return;
  const name = node.name.toLowerCase();
  if (name === 'head' || name === 'title') return;
  if (name === 'br') return out.lineBreak();
  if (name === 'pre') return out.pre(textOf(node));
  const heading = HEADING.exec(name);
  if (heading) {
    out.paragraphBreak();
    out.prefix(`${'#'.repeat(Number(heading[1]))} `);
    node.children.forEach((child) => walk(child, out));
    return out.paragraphBreak();
  }
  if (name === 'li') {
    out.lineBreak();
    out.prefix('- ');
  } else if (name === 'tr') {
    out.lineBreak();
  } else if ((name === 'td' || name === 'th') && out.lineHasText) {
    out.prefix(' | ');
  } else if (PARAGRAPH.has(name)) {
    out.paragraphBreak();
  } else if (BLOCK.has(name)) {
    out.lineBreak();
  }
  node.children.forEach((child) => walk(child, out));
  if (PARAGRAPH.has(name)) out.paragraphBreak();
  else if (BLOCK.has(name) || name === 'li' || name === 'tr') out.lineBreak();
}

function textOf(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag') return '';
  if (node.name === 'br') return '\n';
  return node.children.map(textOf).join('');
}

function resolveBase(href: string | undefined, pageUrl: URL): URL {
  const url = absolute(href, pageUrl);
  return url ?? pageUrl;
}

function absolute(href: string | undefined, base: URL): URL | undefined {
  if (href === undefined) return undefined;
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, '');
}
