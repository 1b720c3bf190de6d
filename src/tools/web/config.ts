import type { EgressPolicy } from './egress.js';
import { DEFAULT_MAX_RESULTS, FETCH_DEFAULTS } from '../../config/defaults.js';

/** The search back ends `search` can use; DuckDuckGo needs no key. */
export type SearchProvider = 'duckduckgo' | 'searxng' | 'tavily' | 'brave';

/** Search settings (config.json → `search`). */
export interface SearchSettings {
  provider: SearchProvider;
  /** Base URL of a SearXNG instance, e.g. `http://localhost:8888` (required for searxng). */
  searxngUrl?: string;
  tavilyKey?: string;
  braveKey?: string;
  /** How many results to return (1–20, default 8). */
  maxResults?: number;
  /** Endpoint overrides, for self-hosted proxies and for tests on 127.0.0.1. */
  duckduckgoUrl?: string;
  tavilyUrl?: string;
  braveUrl?: string;
}

/** Limits for `fetchPage` (config.json → `fetch`). */
export interface FetchLimits {
  /** Whole request, redirects and body included (default 15 000 ms). */
  timeoutMs?: number;
  /** Body bytes read before the page is cut (default 2 MB). */
  maxBytes?: number;
  /** Redirect hops followed (default 5). */
  maxRedirects?: number;
  /** Links listed after the text (default 20). */
  maxLinks?: number;
}

/** The `fetch` settings: the limits and who may be reached (see web/egress.ts). */
export interface FetchSettings extends FetchLimits, EgressPolicy {}

export interface WebToolsSettings {
  search?: SearchSettings;
  fetch?: FetchSettings;
}

export const DEFAULT_SEARCH_URLS = {
  duckduckgo: 'https://html.duckduckgo.com/html/',
  tavily: 'https://api.tavily.com/search',
  brave: 'https://api.search.brave.com/res/v1/web/search',
} as const;

export { DEFAULT_MAX_RESULTS, FETCH_DEFAULTS };

/** `fetch` limits with defaults filled in and nonsense values replaced by defaults. */
export function resolveFetchConfig(config: FetchSettings = {}): Required<FetchLimits> {
  const pick = (value: number | undefined, fallback: number, min: number): number =>
    typeof value === 'number' && Number.isFinite(value) && value >= min
      ? Math.floor(value)
      : fallback;
  return {
    timeoutMs: pick(config.timeoutMs, FETCH_DEFAULTS.timeoutMs, 1),
    maxBytes: pick(config.maxBytes, FETCH_DEFAULTS.maxBytes, 1),
    maxRedirects: pick(config.maxRedirects, FETCH_DEFAULTS.maxRedirects, 0),
    maxLinks: pick(config.maxLinks, FETCH_DEFAULTS.maxLinks, 0),
  };
}

/**
 * Problems in the search settings, each naming the field and the fix; empty when usable.
 * The config loader can show these at startup; `search` reports them again when called.
 */
export function checkSearchConfig(config: SearchSettings | undefined): string[] {
  const search = config ?? { provider: 'duckduckgo' };
  const problems: string[] = [];
  const providers: readonly string[] = ['duckduckgo', 'searxng', 'tavily', 'brave'];
  if (!providers.includes(search.provider)) {
    problems.push(
      `search.provider is "${String(search.provider)}": use one of ${providers.join(', ')} (duckduckgo needs no key).`,
    );
  }
  const missing = (field: string, what: string): void => {
    problems.push(
      `Search provider "${search.provider}" needs ${what}: set search.${field} in config.json, or set search.provider to "duckduckgo", which needs no key.`,
    );
  };
  if (search.provider === 'searxng' && !search.searxngUrl?.trim())
    missing('searxngUrl', 'the address of a SearXNG instance');
  if (search.provider === 'tavily' && !search.tavilyKey?.trim()) missing('tavilyKey', 'an API key');
  if (search.provider === 'brave' && !search.braveKey?.trim()) missing('braveKey', 'an API key');
  if (
    search.maxResults !== undefined &&
    !(Number.isInteger(search.maxResults) && search.maxResults >= 1 && search.maxResults <= 20)
  ) {
    problems.push(
      `search.maxResults is ${String(search.maxResults)}: use a whole number from 1 to 20.`,
    );
  }
  return problems;
}
