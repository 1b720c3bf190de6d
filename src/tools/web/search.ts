import { ok } from '../types.js';
import type { Tool } from '../types.js';
import { checkSearchConfig, DEFAULT_MAX_RESULTS } from './config.js';
import type { SearchSettings, SearchProvider } from './config.js';
import { guard, stringArg, ToolFailure } from './errors.js';
import { readCapped, requestFollowing, withDeadline } from './http.js';
import type { FetchLike } from './http.js';
import { decodeBody } from './charset.js';
import { assertWebScheme } from './url.js';
import { brave } from './search/brave.js';
import { duckduckgo } from './search/duckduckgo.js';
import { searxng } from './search/searxng.js';
import { tavily } from './search/tavily.js';
import type { SearchProviderSpec, SearchResult } from './search/types.js';
import { counted } from '../../core/plural.js';

const PROVIDERS: Record<SearchProvider, SearchProviderSpec> = {
  duckduckgo,
  searxng,
  tavily,
  brave,
};

/** A search answer is small; anything past this is not a results page. */
const MAX_SEARCH_BYTES = 1024 * 1024;
const MAX_QUERY_CHARS = 400;

interface SearchToolOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxRedirects: number;
}

/** Renders results as the numbered list the model reads. */
function renderResults(query: string, label: string, results: readonly SearchResult[]): string {
  if (results.length === 0) return `No results for "${query}" (${label}). Try other words.`;
  const lines = [`Results for "${query}" (${label}):`];
  results.forEach((result, index) => {
    lines.push(`${index + 1}. ${result.title}`, `   ${result.url}`);
    if (result.snippet) lines.push(`   ${result.snippet}`);
  });
  return lines.join('\n');
}

/** Sends the query to the configured provider and returns its parsed results. */
async function runSearch(
  query: string,
  config: SearchSettings,
  options: SearchToolOptions & { signal: AbortSignal },
): Promise<{ label: string; results: SearchResult[] }> {
  const problems = checkSearchConfig(config);
  if (problems.length > 0) throw new ToolFailure('invalid_args', problems.join(' '));
  const spec = PROVIDERS[config.provider];
  const max = config.maxResults ?? DEFAULT_MAX_RESULTS;
  const request = spec.build(query, config, max);
  assertWebScheme(request.url);
  const { status, text } = await withDeadline(
    options.signal,
    options.timeoutMs,
    `searching ${spec.label}`,
    async (signal) => {
      const { response } = await requestFollowing(request.url, {
        fetch: options.fetch,
        signal,
        maxRedirects: options.maxRedirects,
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const { bytes } = await readCapped(response, MAX_SEARCH_BYTES);
      return {
        status: response.status,
        text: decodeBody(bytes, response.headers.get('content-type')).text,
      };
    },
  );
  // A provider may explain a status even inside 2xx: DuckDuckGo answers 202 with a CAPTCHA.
  const explained = spec.explainStatus?.(status, config);
  if (explained !== undefined || status < 200 || status > 299) {
    throw new ToolFailure(
      'network',
      explained ?? `${spec.label} answered HTTP ${status}: try again later.`,
    );
  }
  return { label: spec.label, results: await spec.parse(text, max) };
}

/** `search(query)`: web search through the provider chosen in config (DuckDuckGo by default). */
export function createSearchTool(config: SearchSettings, options: SearchToolOptions): Tool {
  return {
    name: 'search',
    kind: 'network',
    untrustedOutput: true,
    description:
      'Searches the web and returns a numbered list of results (title, URL, snippet). Use fetchPage to read one.',
    params: [{ name: 'query', type: 'string', description: 'what to search for' }],
    run: (args, ctx) =>
      guard(async () => {
        const query = stringArg(args, 0, 'query').trim().replace(/\s+/g, ' ');
        if (query.length > MAX_QUERY_CHARS) {
          throw new ToolFailure(
            'invalid_args',
            `The query is ${query.length} characters long: keep it under ${MAX_QUERY_CHARS}.`,
          );
        }
        const { label, results } = await runSearch(query, config, {
          ...options,
          signal: ctx.signal,
        });
        return ok(
          renderResults(query, label, results),
          `${counted(results.length, 'result')} for "${query}" (${label})`,
        );
      }),
  };
}
