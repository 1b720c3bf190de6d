import { DEFAULT_SEARCH_URLS } from '../config.js';
import { parseJson, resultsFromArray } from './text.js';
import type { SearchProviderSpec } from './types.js';

/** Brave Search API: `GET /res/v1/web/search?q=` with the key in `X-Subscription-Token`. */
export const brave: SearchProviderSpec = {
  label: 'Brave Search',
  build(query, config, max) {
    const url = new URL(config.braveUrl ?? DEFAULT_SEARCH_URLS.brave);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(max));
    return {
      url,
      method: 'GET',
      headers: { accept: 'application/json', 'x-subscription-token': config.braveKey ?? '' },
    };
  },
  async parse(body, max) {
    const data = parseJson(body, 'Brave Search') as { web?: { results?: unknown } } | null;
    // Descriptions carry <strong> highlights; resultsFromArray strips them.
    return resultsFromArray(data?.web?.results, 'description', max);
  },
  explainStatus(status) {
    if (status === 401 || status === 403 || status === 422) {
      return `Brave Search rejected the API key (HTTP ${status}): check search.braveKey in config.json.`;
    }
    if (status === 429)
      return 'Brave Search is rate-limiting (HTTP 429): the plan allows fewer queries; wait and retry.';
    return undefined;
  },
};
