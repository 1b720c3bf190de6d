import { ToolFailure } from '../errors.js';
import { DEFAULT_SEARCH_URLS } from '../config.js';
import { cleanInline } from '../../../documents/html/inline.js';
import { loadCheerio } from '../lazy.js';
import type { SearchProviderSpec, SearchResult } from './types.js';

/**
 * DuckDuckGo's JavaScript-free results page: the one search that needs no key. Results are
 * `a.result__a` links whose href is DDG's redirect `//duckduckgo.com/l/?uddg=<target>`;
 * ads (`.result--ad`, `y.js` links) are skipped.
 */
export const duckduckgo: SearchProviderSpec = {
  label: 'DuckDuckGo',
  build(query, config) {
    return {
      url: new URL(config.duckduckgoUrl ?? DEFAULT_SEARCH_URLS.duckduckgo),
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ q: query, b: '' }).toString(),
    };
  },
  async parse(body, max) {
    const results = await parseDuckDuckGoHtml(body, max);
    if (results.length === 0 && /anomaly-modal|challenge-form|bots use DuckDuckGo/i.test(body)) {
      throw new ToolFailure('network', BLOCKED);
    }
    return results;
  },
  explainStatus(status) {
    return status === 202 || status === 403 || status === 429 ? BLOCKED : undefined;
  },
};

const BLOCKED =
  'DuckDuckGo refused the automated search (it rate-limits and shows a CAPTCHA): wait a few minutes, or set search.provider to "searxng", "brave" or "tavily" in config.json.';

/** Parses DDG's HTML results page into at most `max` results (cheerio loads on first use). */
async function parseDuckDuckGoHtml(html: string, max: number): Promise<SearchResult[]> {
  const { load } = await loadCheerio();
  const $ = load(html);
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  $('a.result__a').each((_, element) => {
    if (results.length >= max) return false;
    const link = $(element);
    const container = link.closest('.result');
    if (container.hasClass('result--ad')) return undefined;
    const url = unwrapDuckDuckGoHref(link.attr('href'));
    if (url === undefined || seen.has(url)) return undefined;
    seen.add(url);
    const snippet = cleanInline(container.find('.result__snippet').first().text());
    results.push({ title: cleanInline(link.text()) || url, url, snippet });
    return undefined;
  });
  return results;
}

/**
 * Turns `//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F&rut=…` into
 * `https://example.com/`; keeps direct http(s) links; returns undefined for ads and junk.
 */
export function unwrapDuckDuckGoHref(href: string | undefined): string | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(href.trim(), 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  if (/(^|\.)duckduckgo\.com$/i.test(url.hostname)) {
    if (url.pathname !== '/l/' && url.pathname !== '/l') return undefined;
    const target = url.searchParams.get('uddg');
    if (target === null) return undefined;
    try {
      url = new URL(target);
    } catch {
      return undefined;
    }
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
