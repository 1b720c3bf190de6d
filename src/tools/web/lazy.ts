/**
 * The web tools' heavy libraries, imported on first use rather than when the registry is
 * built. cheerio, linkedom, Readability and turndown cost a few hundred milliseconds and
 * ~20 MB to load, and a session that never searches or fetches a page should not pay that
 * at start-up (bench/README.md, "Start-up").
 */

/** Wraps a dynamic import so it runs once; a failed import is retried on the next call. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/** cheerio, for the search result pages and snippets. */
export const loadCheerio = once(() => import('cheerio'));

/** The page reader (cheerio, linkedom, Readability, turndown), for fetchPage. */
export const loadPageReader = once(() => import('../../documents/html/pageReader.js'));
