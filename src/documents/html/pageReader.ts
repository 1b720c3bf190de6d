/**
 * Turns a fetched HTML page into the title, text and links fetchPage returns. This is the
 * heavy half of fetchPage: it loads cheerio, linkedom, Readability and turndown, so
 * fetchPage.ts imports it on first use through `loadPageReader()` (lazy.ts).
 */
import { load } from 'cheerio';
import { extractArticle } from './article.js';
import { cleanDocument, collectLinks, htmlToMarkdown, htmlToText, loadPage } from './htmlToText.js';
import type { PageLink } from './htmlToText.js';

/** How fetchPage renders a page: readable text or Markdown. */
export type PageMode = 'text' | 'markdown';

/** What an HTML page reads as. */
export interface ReadPage {
  title: string;
  body: string;
  links: PageLink[];
}

/**
 * Reads `html` fetched from `url`: its links (content first, at most `maxLinks`), then the
 * main article when Readability finds one that holds a fair share of the page's text, else
 * the whole cleaned page, as text or Markdown.
 */
export function readHtml(html: string, url: URL, mode: PageMode, maxLinks: number): ReadPage {
  const { $, title, base } = loadPage(html, url);
  const links = collectLinks($, base, url, maxLinks);
  cleanDocument($, base);
  const wholeText = htmlToText($);
  // Readability sees the raw page; its result is cleaned and made absolute the same way.
  const article = extractArticle(html);
  if (article !== undefined && article.textLength >= wholeText.length * 0.3) {
    const $article = load(article.nodes, null, false);
    cleanDocument($article, base);
    const body = mode === 'markdown' ? htmlToMarkdown($article.html()) : htmlToText($article, null);
    return { title: title || article.title || '', body, links };
  }
  const body = mode === 'markdown' ? htmlToMarkdown($('body').html() ?? $.html()) : wholeText;
  return { title, body, links };
}
