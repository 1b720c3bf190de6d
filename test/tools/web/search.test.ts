import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebTools } from '../../../src/tools/web/index.js';
import type { SearchSettings } from '../../../src/tools/web/index.js';
import { checkSearchConfig } from '../../../src/tools/web/config.js';
import { unwrapDuckDuckGoHref } from '../../../src/tools/web/search/duckduckgo.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, FIXTURES, okText, readBody, startServer, testContext } from './helpers.js';
import type { TestServer } from './helpers.js';

interface Seen {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: TestServer;
let seen: Seen[];
/** What the next request gets: status, content type, body. */
let reply: { status: number; type: string; body: string | Buffer };

const fixture = (name: string): Promise<Buffer> => readFile(path.join(FIXTURES, 'web', name));

/** The test server is on 127.0.0.1, which the egress guard refuses unless opted in. */
function searchTool(config: SearchSettings, fetchImpl?: typeof fetch): Tool {
  const local = { search: config, fetch: { allowPrivateNetwork: true } };
  return createWebTools(local, fetchImpl ? { fetch: fetchImpl } : {}).find(
    (tool) => tool.name === 'search',
  )!;
}

beforeEach(async () => {
  seen = [];
  reply = { status: 200, type: 'text/html', body: '' };
  server = await startServer(async (req, res) => {
    seen.push({
      method: req.method ?? '',
      url: new URL(req.url ?? '/', server.url),
      headers: req.headers,
      body: await readBody(req),
    });
    res.writeHead(reply.status, { 'content-type': reply.type });
    res.end(reply.body);
  });
});

afterEach(async () => {
  await server.close();
});

describe('search: DuckDuckGo HTML (the no-key default)', () => {
  it('posts the query and renders a numbered list with unwrapped result URLs, ads skipped', async () => {
    reply = {
      status: 200,
      type: 'text/html; charset=utf-8',
      body: await fixture('duckduckgo.html'),
    };
    const tool = searchTool({ provider: 'duckduckgo', duckduckgoUrl: `${server.url}/html/` });
    const result = await tool.run(['rust  async runtime'], testContext());
    const text = okText(result);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url.pathname).toBe('/html/');
    expect(new URLSearchParams(seen[0]?.body).get('q')).toBe('rust async runtime');
    expect(text).toBe(
      [
        'Results for "rust async runtime" (DuckDuckGo):',
        '1. Tokio - An asynchronous Rust runtime',
        '   https://tokio.rs/',
        '   Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.',
        '2. Getting Started - Asynchronous Programming in Rust',
        '   https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?a=1&b=2',
        '   Asynchronous programming & the async/await syntax in Rust.',
        '3. async_std - Rust',
        '   https://docs.rs/async-std/latest/async_std/',
        '   Async version of the Rust standard library.',
        '4. smol - A small and fast async runtime',
        '   https://smol.rs/',
        '   中文摘要：一个小而快的异步运行时。',
      ].join('\n'),
    );
    expect(result.ok && result.display).toBe('4 results for "rust async runtime" (DuckDuckGo)');
  });

  it('honours maxResults', async () => {
    reply = { status: 200, type: 'text/html', body: await fixture('duckduckgo.html') };
    const text = okText(
      await searchTool({ provider: 'duckduckgo', duckduckgoUrl: server.url, maxResults: 2 }).run(
        ['q'],
        testContext(),
      ),
    );
    expect(text).toContain('2. ');
    expect(text).not.toContain('3. ');
  });

  it('explains the CAPTCHA page instead of returning no results', async () => {
    reply = { status: 202, type: 'text/html', body: await fixture('duckduckgo-anomaly.html') };
    const error = errorOf(
      await searchTool({ provider: 'duckduckgo', duckduckgoUrl: server.url }).run(
        ['q'],
        testContext(),
      ),
    );
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/CAPTCHA.*search\.provider/);
  });

  it('says so when there are no results', async () => {
    reply = {
      status: 200,
      type: 'text/html',
      body: '<html><body><div class="no-results">No results.</div></body></html>',
    };
    const text = okText(
      await searchTool({ provider: 'duckduckgo', duckduckgoUrl: server.url }).run(
        ['zzzz'],
        testContext(),
      ),
    );
    expect(text).toBe('No results for "zzzz" (DuckDuckGo). Try other words.');
  });

  it.each([
    [
      '//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&rut=x',
      'https://example.com/a?b=1',
    ],
    ['https://duckduckgo.com/l/?uddg=http%3A%2F%2Fexample.org%2F', 'http://example.org/'],
    ['https://example.net/direct', 'https://example.net/direct'],
    ['https://duckduckgo.com/y.js?ad_domain=x', undefined],
    ['//duckduckgo.com/l/?uddg=javascript%3Aalert(1)', undefined],
    ['', undefined],
  ])('unwraps %s', (href, expected) => {
    expect(unwrapDuckDuckGoHref(href)).toBe(expected);
  });
});

describe('search: SearXNG JSON', () => {
  it('asks /search?format=json and keeps only http(s) results', async () => {
    reply = { status: 200, type: 'application/json', body: await fixture('searxng.json') };
    const text = okText(
      await searchTool({ provider: 'searxng', searxngUrl: `${server.url}/sx` }).run(
        ['rust'],
        testContext(),
      ),
    );
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.url.pathname).toBe('/sx/search');
    expect(seen[0]?.url.searchParams.get('q')).toBe('rust');
    expect(seen[0]?.url.searchParams.get('format')).toBe('json');
    expect(text).toContain(
      '1. Tokio - An asynchronous Rust runtime\n   https://tokio.rs/\n   Tokio is an asynchronous runtime',
    );
    expect(text).toContain('Async version of the Rust standard library & more.');
    expect(text).toContain('3. smol\n   https://smol.rs/');
    expect(text).not.toContain('javascript:');
  });

  it('explains a 403 (JSON format disabled)', async () => {
    reply = { status: 403, type: 'text/html', body: 'Forbidden' };
    const error = errorOf(
      await searchTool({ provider: 'searxng', searxngUrl: server.url }).run(
        ['rust'],
        testContext(),
      ),
    );
    expect(error.message).toMatch(/settings\.yml/);
  });

  it('explains a body that is not JSON', async () => {
    reply = { status: 200, type: 'text/html', body: '<html>login</html>' };
    const error = errorOf(
      await searchTool({ provider: 'searxng', searxngUrl: server.url }).run(
        ['rust'],
        testContext(),
      ),
    );
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/SearXNG did not answer with JSON/);
  });
});

describe('search: Tavily JSON', () => {
  it('posts JSON with api_key and renders the results', async () => {
    reply = { status: 200, type: 'application/json', body: await fixture('tavily.json') };
    const tool = searchTool({
      provider: 'tavily',
      tavilyKey: 'tvly-test',
      tavilyUrl: `${server.url}/search`,
      maxResults: 5,
    });
    const text = okText(await tool.run(['rust async'], testContext()));
    expect(seen[0]?.method).toBe('POST');
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({
      api_key: 'tvly-test',
      query: 'rust async',
      max_results: 5,
    });
    expect(text).toContain(
      '2. Rust 异步编程指南\n   https://course.rs/advance/async/intro.html\n   本章介绍 Rust 的 async/await。',
    );
  });

  it('names search.tavilyKey on a rejected key', async () => {
    reply = { status: 401, type: 'application/json', body: '{"detail":{"error":"Unauthorized"}}' };
    const error = errorOf(
      await searchTool({ provider: 'tavily', tavilyKey: 'bad', tavilyUrl: server.url }).run(
        ['q'],
        testContext(),
      ),
    );
    expect(error.message).toContain('search.tavilyKey');
  });
});

describe('search: Brave JSON', () => {
  it('sends the key in X-Subscription-Token and strips highlight markup', async () => {
    reply = { status: 200, type: 'application/json', body: await fixture('brave.json') };
    const tool = searchTool({
      provider: 'brave',
      braveKey: 'BSA-test',
      braveUrl: `${server.url}/res/v1/web/search`,
    });
    const text = okText(await tool.run(['rust async'], testContext()));
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers['x-subscription-token']).toBe('BSA-test');
    expect(seen[0]?.url.searchParams.get('q')).toBe('rust async');
    expect(text).toContain(
      '1. Tokio - An asynchronous Rust runtime\n   https://tokio.rs/\n   Tokio is an asynchronous runtime for the Rust programming language & more.',
    );
    expect(text).toContain('3. Glommio');
    expect(text).not.toContain('<strong>');
  });

  it('names search.braveKey on a rejected key', async () => {
    reply = { status: 401, type: 'application/json', body: '{}' };
    const error = errorOf(
      await searchTool({ provider: 'brave', braveKey: 'bad', braveUrl: server.url }).run(
        ['q'],
        testContext(),
      ),
    );
    expect(error.message).toContain('search.braveKey');
  });
});

describe('search: configuration', () => {
  it.each([
    [{ provider: 'tavily' } as SearchSettings, 'search.tavilyKey'],
    [{ provider: 'brave', braveKey: '  ' } as SearchSettings, 'search.braveKey'],
    [{ provider: 'searxng' } as SearchSettings, 'search.searxngUrl'],
    [{ provider: 'bing' } as unknown as SearchSettings, 'search.provider'],
    [{ provider: 'duckduckgo', maxResults: 0 } as SearchSettings, 'search.maxResults'],
  ])('refuses %o naming %s, without a request', async (config, field) => {
    const spy = vi.fn<typeof fetch>();
    const error = errorOf(await searchTool(config, spy).run(['q'], testContext()));
    expect(error.kind).toBe('invalid_args');
    expect(error.message).toContain(field);
    expect(spy).not.toHaveBeenCalled();
    expect(checkSearchConfig(config).join(' ')).toContain(field);
  });

  it('accepts the default', () => {
    expect(checkSearchConfig(undefined)).toEqual([]);
    expect(checkSearchConfig({ provider: 'duckduckgo' })).toEqual([]);
  });

  it('rejects an empty or overlong query', async () => {
    const tool = searchTool({ provider: 'duckduckgo', duckduckgoUrl: server.url });
    expect(errorOf(await tool.run(['   '], testContext())).kind).toBe('invalid_args');
    expect(errorOf(await tool.run(['x'.repeat(500)], testContext())).message).toMatch(/under 400/);
    expect(seen).toHaveLength(0);
  });

  it('times out on a silent search server', async () => {
    const silent = await startServer(() => undefined);
    try {
      const tools = createWebTools({
        search: { provider: 'searxng', searxngUrl: silent.url },
        fetch: { timeoutMs: 150, allowPrivateNetwork: true },
      });
      const error = errorOf(
        await tools.find((tool) => tool.name === 'search')!.run(['q'], testContext()),
      );
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/searching SearXNG/);
    } finally {
      await silent.close();
    }
  });
});
