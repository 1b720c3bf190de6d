import { ToolFailure } from '../errors.js';
import { cleanInline } from '../../../documents/html/inline.js';
import { loadCheerio } from '../lazy.js';
import type { SearchResult } from './types.js';

/**
 * Plain text of a snippet that may hold markup (`<strong>`) and entities (`&amp;`). cheerio
 * loads only for a snippet that has some.
 */
async function stripMarkup(html: string): Promise<string> {
  if (!/[<&]/.test(html)) return cleanInline(html);
  const { load } = await loadCheerio();
  return cleanInline(load(html, null, false).text());
}

/** JSON.parse with a failure that says which service sent what. */
export function parseJson(body: string, label: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const start = cleanInline(body.slice(0, 80));
    throw new ToolFailure(
      'network',
      `${label} did not answer with JSON; the start of what it sent is quoted below.`,
      `${start}…`,
    );
  }
}

/** Reads `{ title, url, <snippetKey> }` items from a JSON array, keeping http(s) ones only. */
export async function resultsFromArray(
  items: unknown,
  snippetKey: string,
  max: number,
): Promise<SearchResult[]> {
  if (!Array.isArray(items)) return [];
  const results: SearchResult[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const url = typeof record.url === 'string' ? record.url : '';
    if (!/^https?:\/\//i.test(url)) continue;
    const title = typeof record.title === 'string' ? await stripMarkup(record.title) : '';
    const snippet =
      typeof record[snippetKey] === 'string' ? await stripMarkup(record[snippetKey]) : '';
    results.push({ title: title || url, url, snippet });
    if (results.length >= max) break;
  }
  return results;
}
