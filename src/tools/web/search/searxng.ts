import { ToolFailure } from '../errors.js';
import { parseJson, resultsFromArray } from './text.js';
import type { SearchProviderSpec } from './types.js';

/**
 * A SearXNG instance's JSON API: `<searxngUrl>/search?q=…&format=json`. The JSON format is
 * off by default in SearXNG, which then answers 403.
 */
export const searxng: SearchProviderSpec = {
  label: 'SearXNG',
  build(query, config) {
    const base = config.searxngUrl?.trim() ?? '';
    let url: URL;
    try {
      url = new URL('search', base.endsWith('/') ? base : `${base}/`);
    } catch {
      throw new ToolFailure(
        'invalid_args',
        `search.searxngUrl "${base}" is not a valid URL: set it to the instance's address, e.g. http://localhost:8888.`,
      );
    }
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    return { url, method: 'GET', headers: { accept: 'application/json' } };
  },
  async parse(body, max) {
    const data = parseJson(body, 'SearXNG') as { results?: unknown } | null;
    return resultsFromArray(data?.results, 'content', max);
  },
  explainStatus(status, config) {
    if (status === 403) {
      return `SearXNG at ${config.searxngUrl} refused JSON output (HTTP 403): add "json" to search.formats in the instance's settings.yml.`;
    }
    if (status === 429)
      return `SearXNG at ${config.searxngUrl} is rate-limiting (HTTP 429): wait and retry.`;
    return undefined;
  },
};
