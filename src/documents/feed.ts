/**
 * RSS (2.0 and 1.0/RDF) and Atom feeds: the feed's title, link and description up front, then
 * one unit per item with its date, link and summary (HTML summaries as Markdown, long ones
 * trimmed). Parsed by cheerio in XML mode, so entities the feed declares are never expanded.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { htmlToMarkdown } from './markup.js';
import { declaresEntities, decodeXml, loadXml } from './xmlTree.js';
import type { DocumentUnit, ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { unitWindow } from './unitWindow.js';

/** Most characters of one item's summary: a feed is read to choose what to open. */
const SUMMARY_CHARS = 1500;

interface Item {
  readonly title: string;
  readonly date: string;
  readonly link: string;
  readonly author: string;
  readonly summaryHtml: string;
}

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const xml = decodeXml(input.bytes);
  const $ = loadXml(xml);
  const root = $.root().children().first();
  const rootName = root.prop('tagName')?.toLowerCase() ?? '';
  const atom = rootName.split(':').pop() === 'feed';
  if (!atom && rootName !== 'rss' && rootName.split(':').pop() !== 'rdf') {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not an RSS or Atom feed: ${rootName ? `its root element is <${rootName}>` : 'no XML element was found'}.`,
    );
  }
  const channel = atom ? root : root.find('channel').first();
  const entries = atom
    ? childrenNamed($, root, 'entry')
    : $('item')
        .toArray()
        .map((el) => $(el));
  const items = entries.map((entry) => (atom ? atomItem($, entry) : rssItem($, entry)));
  const unitAt = (n: number): DocumentUnit => itemUnit(items[n - 1]!, n);
  const window = unitWindow(items.length, unitAt, input, 'item');
  const notes = declaresEntities(xml)
    ? [
        'the feed declares its own XML entities; they were not expanded (an entity-expansion attack, or an odd tool).',
      ]
    : [];
  const meta: [string, string][] = [];
  const add = (label: string, value: string): void => {
    if (value) meta.push([label, value]);
  };
  add('Title', text($, channel, 'title'));
  add('Link', atom ? atomLink($, channel) : text($, channel, 'link'));
  add('Description', oneLine(text($, channel, atom ? 'subtitle' : 'description')).slice(0, 300));
  add('Updated', text($, channel, atom ? 'updated' : 'lastBuildDate') || text($, channel, 'date'));
  add('Items', String(items.length));
  return {
    kind: 'feed',
    label: atom ? 'Atom feed' : 'RSS feed',
    meta,
    unitName: 'item',
    unitCount: items.length,
    units: window.units,
    notes: [...notes, ...window.notes],
  };
}

function rssItem($: CheerioAPI, item: Cheerio<Element>): Item {
  return {
    title: oneLine(text($, item, 'title')),
    date: text($, item, 'pubDate') || text($, item, 'date'),
    link:
      text($, item, 'link') ||
      (item.find('guid').attr('isPermaLink') !== 'false' ? text($, item, 'guid') : ''),
    author: oneLine(text($, item, 'author') || text($, item, 'creator')),
    summaryHtml: text($, item, 'description') || text($, item, 'encoded'),
  };
}

function atomItem($: CheerioAPI, entry: Cheerio<Element>): Item {
  const author = childrenNamed($, entry, 'author')[0];
  return {
    title: oneLine(text($, entry, 'title')),
    date: text($, entry, 'updated') || text($, entry, 'published'),
    link: atomLink($, entry),
    author: author ? oneLine(text($, author, 'name')) : '',
    summaryHtml: text($, entry, 'summary') || text($, entry, 'content'),
  };
}

function itemUnit(item: Item, n: number): DocumentUnit {
  const lines = [
    item.date && `Date: ${item.date}`,
    item.link && `Link: ${item.link}`,
    item.author && `Author: ${item.author}`,
  ].filter(Boolean);
  let summary = item.summaryHtml ? htmlToMarkdown(item.summaryHtml) : '';
  if (summary.length > SUMMARY_CHARS)
    summary = `${summary.slice(0, SUMMARY_CHARS)}… (summary trimmed)`;
  return {
    title: item.title ? `Item ${n}: ${item.title}` : `Item ${n}`,
    markdown: [lines.join('\n'), summary].filter(Boolean).join('\n\n'),
  };
}

/** The text of the first direct child with this local name (`title`, `dc:date`, `content:encoded`). */
function text($: CheerioAPI, parent: Cheerio<Element>, local: string): string {
  const child = childrenNamed($, parent, local)[0];
  return child ? child.text().trim() : '';
}

function childrenNamed($: CheerioAPI, parent: Cheerio<Element>, local: string): Cheerio<Element>[] {
  return parent
    .children()
    .toArray()
    .filter((el) => el.tagName.split(':').pop() === local)
    .map((el) => $(el));
}

/** Atom's `<link rel="alternate" href>` (a link without `rel` is alternate). */
function atomLink($: CheerioAPI, parent: Cheerio<Element>): string {
  const links = childrenNamed($, parent, 'link');
  const alternate = links.find((l) => (l.attr('rel') ?? 'alternate') === 'alternate') ?? links[0];
  return alternate?.attr('href') ?? '';
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
