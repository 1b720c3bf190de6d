import { load } from 'cheerio';
import { ToolFailure } from '../errors.js';
import { cleanInline } from '../htmlToText.js';
import type { SearchResult } from './types.js';

/** Plain text of a snippet that may hold markup (`<strong>`) and entities (`&amp;`). */
export function stripMarkup(html: string): string {
  if (!/[<&]/.test(html)) return cleanInline(html);
  return cleanInline(load(html, null, false).text());
}

/** JSON.parse with a failure that says which service sent what. */
export function parseJson(body: string, label: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const start = cleanInline(body.slice(0, 80));
    throw new ToolFailure('network', `${label} did not answer with JSON (it sent "${start}…").`);
  }
}

/** Reads `{ title, url, <snippetKey> }` items from a JSON array, keeping http(s) ones only. */
export function resultsFromArray(items: unknown, snippetKey: string, max: number): SearchResult[] {
  if (!Array.isArray(items)) return [];
  const results: SearchResult[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const url = typeof record.url === 'string' ? record.url : '';
    if (!/^https?:\/\//i.test(url)) continue;
    const title = typeof record.title === 'string' ? stripMarkup(record.title) : '';
    const snippet = typeof record[snippetKey] === 'string' ? stripMarkup(record[snippetKey]) : '';
    results.push({ title: title || url, url, snippet });
    if (results.length >= max) break;
  }
  return results;
}
