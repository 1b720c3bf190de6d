import type { SearchSettings } from '../config.js';

/** One search hit as every provider's parser returns it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** The HTTP request a provider wants sent for a query. */
interface SearchRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** A search back end: how to ask, how to read the answer, how to explain a refusal. */
export interface SearchProviderSpec {
  /** Shown in messages, e.g. "DuckDuckGo". */
  readonly label: string;
  build(query: string, config: SearchSettings, maxResults: number): SearchRequest;
  /**
   * Parses a successful (2xx) body; rejects with a ToolFailure when it is not what was
   * expected. Asynchronous so a parser can load its HTML library on first use.
   */
  parse(body: string, maxResults: number): Promise<SearchResult[]>;
  /** A specific message for a non-2xx status (bad key, rate limit), or undefined for the generic one. */
  explainStatus?(status: number, config: SearchSettings): string | undefined;
}
