import { DEFAULT_SEARCH_URLS } from '../config.js';
import { parseJson, resultsFromArray } from './text.js';
import type { SearchProviderSpec } from './types.js';

/** Tavily's search API: `POST /search` with a JSON body carrying the key. */
export const tavily: SearchProviderSpec = {
  label: 'Tavily',
  build(query, config, max) {
    const key = config.tavilyKey ?? '';
    return {
      url: new URL(config.tavilyUrl ?? DEFAULT_SEARCH_URLS.tavily),
      method: 'POST',
      // The key goes in the body (the documented form) and as a bearer token (the newer one).
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({ api_key: key, query, max_results: max, search_depth: 'basic' }),
    };
  },
  async parse(body, max) {
    const data = parseJson(body, 'Tavily') as { results?: unknown } | null;
    return resultsFromArray(data?.results, 'content', max);
  },
  explainStatus(status) {
    if (status === 401 || status === 403)
      return 'Tavily rejected the API key: check search.tavilyKey in config.json.';
    if (status === 429 || status === 432)
      return `Tavily refused the search (HTTP ${status}): the plan's rate or credit limit is reached.`;
    return undefined;
  },
};
