import { Readability, isProbablyReaderable } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Below this many characters an "article" is more likely a fragment than the page's point. */
const MIN_ARTICLE_CHARS = 250;

export interface Article {
  title: string | undefined;
  /** The article's HTML, for the text or Markdown converters. */
  html: string;
  /** Length of the article's plain text. */
  textLength: number;
}

/**
 * Extracts the main article with Readability (on a linkedom DOM) when the page looks like
 * one. Returns undefined for pages that are lists, indexes or apps, where the whole cleaned
 * page reads better, and whenever Readability fails: it is an improvement, not a need.
 */
export function extractArticle(html: string): Article | undefined {
  try {
    const { document } = parseHTML(html);
    if (!isProbablyReaderable(document)) return undefined;
    const article = new Readability(document, { charThreshold: MIN_ARTICLE_CHARS }).parse();
    const text = article?.textContent?.trim() ?? '';
    if (!article?.content || text.length < MIN_ARTICLE_CHARS) return undefined;
    return { title: article.title ?? undefined, html: article.content, textLength: text.length };
  } catch {
    return undefined;
  }
}
