import { Readability, isProbablyReaderable } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { AnyNode } from 'domhandler';
import { copyChildren, type DomNode } from './domTree.js';

/** Below this many characters an "article" is more likely a fragment than the page's point. */
const MIN_ARTICLE_CHARS = 250;

interface Article {
  title: string | undefined;
  /** The article's nodes, copied for cheerio (no second parse), for the text or Markdown converters. */
  nodes: AnyNode[];
  /** Length of the article's plain text. */
  textLength: number;
}

/**
 * Extracts the main article with Readability (on a linkedom DOM, the page's one linkedom
 * parse) when the page looks like one. Returns undefined for pages that are lists, indexes or apps, where the whole cleaned
 * page reads better, and whenever Readability fails: it is an improvement, not a need.
 */
export function extractArticle(html: string): Article | undefined {
  try {
    const { document } = parseHTML(html);
    if (!isProbablyReaderable(document)) return undefined;
    // The article element itself rather than its HTML: copying it costs less than a parse.
    const article = new Readability(document, {
      charThreshold: MIN_ARTICLE_CHARS,
      serializer: (node) => node as unknown as DomNode,
    }).parse();
    const text = article?.textContent?.trim() ?? '';
    if (!article?.content || text.length < MIN_ARTICLE_CHARS) return undefined;
    const nodes = copyChildren(article.content);
    return { title: article.title ?? undefined, nodes, textLength: text.length };
  } catch {
    return undefined;
  }
}
