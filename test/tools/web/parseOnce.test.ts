/**
 * Each fetched page is parsed at most once per HTML library: cheerio reads the page, linkedom
 * builds the DOM Readability works on, and turndown (Markdown only) parses the HTML it is
 * given. The article Readability finds is copied into cheerio's nodes, not parsed again.
 * The libraries are wrapped where our code calls them, counting calls that take HTML text.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Cheerio from 'cheerio';
import type * as Linkedom from 'linkedom';
import type TurndownService from 'turndown';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebTools } from '../../../src/tools/web/index.js';
import { FIXTURES, okText, startServer, testContext, type TestServer } from './helpers.js';

const parses = vi.hoisted(() => ({ cheerio: 0, linkedom: 0, turndown: 0 }));

vi.mock('cheerio', async (importOriginal) => {
  const real = await importOriginal<typeof Cheerio>();
  const load: typeof real.load = (content, ...rest) => {
    if (typeof content === 'string' || Buffer.isBuffer(content)) parses.cheerio += 1;
    return real.load(content, ...rest);
  };
  return { ...real, load };
});

vi.mock('linkedom', async (importOriginal) => {
  const real = await importOriginal<typeof Linkedom>();
  const parseHTML: typeof real.parseHTML = (...args) => {
    parses.linkedom += 1;
    return real.parseHTML(...args);
  };
  return { ...real, parseHTML };
});

vi.mock('turndown', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof TurndownService }>()).default;
  class CountingTurndown extends real {
    override turndown(input: string | TurndownService.Node): string {
      if (typeof input === 'string') parses.turndown += 1;
      return super.turndown(input);
    }
  }
  return { default: CountingTurndown };
});

let server: TestServer;
const fetchPage = createWebTools({ fetch: { allowPrivateNetwork: true } }).find(
  (tool) => tool.name === 'fetchPage',
)!;

beforeAll(async () => {
  const pages: Record<string, Buffer> = {
    '/article': await readFile(path.join(FIXTURES, 'web/article.html')),
    '/article-links': await readFile(path.join(FIXTURES, 'web/article-links.html')),
    '/list': Buffer.from(
      '<html><head><title>Index</title></head><body><h1>Index</h1><ul>' +
        '<li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li></ul></body></html>',
    ),
  };
  server = await startServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'missing');
  });
});
afterAll(() => server.close());
beforeEach(() => {
  parses.cheerio = parses.linkedom = parses.turndown = 0;
});

async function read(page: string, mode: 'text' | 'markdown'): Promise<string> {
  return okText(await fetchPage.run([`${server.url}${page}`, mode], testContext()));
}

describe('a fetched page is parsed once per library', () => {
  it.each(['/article', '/article-links', '/list'])('%s as text', async (page) => {
    const text = await read(page, 'text');
    expect(text.length).toBeGreaterThan(0);
    expect(parses).toEqual({ cheerio: 1, linkedom: 1, turndown: 0 });
  });

  it.each(['/article', '/article-links', '/list'])('%s as Markdown', async (page) => {
    const text = await read(page, 'markdown');
    expect(text.length).toBeGreaterThan(0);
    expect(parses).toEqual({ cheerio: 1, linkedom: 1, turndown: 1 });
  });

  it('the article, copied instead of parsed again, still reads cleaned and absolute', async () => {
    const text = await read('/article-links', 'text');
    expect(text).toContain('## The Title');
    expect(text).toContain('line one\n  line two <b>');
    expect(text).toMatch(/k +\| v/);
    for (const gone of ['HIDDEN TEXT', 'NONE TEXT', 'SCRIPT', 'Home', 'About']) {
      expect(text.split('Links:')[0]).not.toContain(gone);
    }
    const markdown = await read('/article-links', 'markdown');
    expect(markdown).toContain(`[relative link](${server.url}/rel/link.html)`);
    expect(markdown).toContain(`![pic](${server.url}/img/x.png)`);
    expect(markdown).toContain('**strong**');
  });
});
