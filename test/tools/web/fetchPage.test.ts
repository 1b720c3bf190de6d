import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebTools } from '../../../src/tools/web/index.js';
import type { WebToolsSettings } from '../../../src/tools/web/index.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, FIXTURES, okText, startServer, testContext } from './helpers.js';
import { waitUntil } from '../../helpers/waitFor.js';
import type { TestServer } from './helpers.js';

/** "你好，世界" in GBK, written as bytes because Node can decode GBK but not encode it. */
const GBK_HELLO = [0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7];
const TEN_MB = 10 * 1024 * 1024;

let server: TestServer;
let requests: string[];
let bigBody: { written: number; finished: boolean; closed: boolean };

/** DNS for stubbed fetches: every name is a public address (there is no network here). */
const publicDns = async (): Promise<{ address: string; family: 4 }[]> => [
  { address: '93.184.215.14', family: 4 },
];

/** The test server is on 127.0.0.1, which the egress guard refuses unless opted in. */
function fetchPageTool(config: WebToolsSettings = {}, fetchImpl?: typeof fetch): Tool {
  const local = { ...config, fetch: { allowPrivateNetwork: true, ...config.fetch } };
  const tools = createWebTools(local, fetchImpl ? { fetch: fetchImpl, resolver: publicDns } : {});
  return tools.find((tool) => tool.name === 'fetchPage')!;
}

beforeEach(async () => {
  requests = [];
  bigBody = { written: 0, finished: false, closed: false };
  const article = await readFile(path.join(FIXTURES, 'web/article.html'));
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    switch (url.pathname) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(article);
      case '/list':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(
          '<html><head><title>Index</title><base href="/docs/"></head><body><h1>Index</h1><ul><li><a href="a.html">Alpha</a></li>' +
            '<li><a href="b.html">Beta</a></li><li><a href="a.html#x">Alpha again</a></li></ul><script>SCRIPT_TEXT</script></body></html>',
        );
      case '/hop1':
        res.writeHead(301, { location: '/hop2' });
        return res.end();
      case '/hop2':
        res.writeHead(302, { location: `${server.url}/hop3` });
        return res.end();
      case '/hop3':
        res.writeHead(307, { location: '/list' });
        return res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        return res.end();
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.on('close', () => (bigBody.closed = true));
        res.on('finish', () => (bigBody.finished = true));
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = (): void => {
          while (bigBody.written < TEN_MB && !res.destroyed) {
            bigBody.written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      case '/gbk-header':
        res.writeHead(200, { 'content-type': 'text/html; charset=GBK' });
        return res.end(
          Buffer.concat([
            Buffer.from('<html><head><title>t</title></head><body><p>'),
            Buffer.from(GBK_HELLO),
            Buffer.from('</p></body></html>'),
          ]),
        );
      case '/gbk-meta':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(
          Buffer.concat([
            Buffer.from(
              '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>',
            ),
            Buffer.from(GBK_HELLO),
            Buffer.from('</title></head><body><p>'),
            Buffer.from(GBK_HELLO),
            Buffer.from('</p></body></html>'),
          ]),
        );
      case '/slow':
        // Headers never come: the client's deadline must end the wait.
        return;
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.write('<html><body>partial');
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case '/pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end('%PDF-1.4');
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('line one\n  indented <b>not html</b>\n');
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"name":"cogito","tags":["a","b"]}');
      case '/untyped-binary':
        res.writeHead(200, {});
        return res.end(Buffer.from([0, 1, 2, 3, 0, 5]));
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('nope');
    }
  });
});

afterEach(async () => {
  await server.close();
});

describe('fetchPage: reading HTML', () => {
  it('returns readable text without script, style, nav, footer or hidden parts, then absolute links', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/article`], testContext()));
    const [body, links] = text.split('\nLinks:\n');
    expect(body).toContain('Title: Field notes: keeping bees in the city');
    expect(body).toContain('Urban beekeeping has grown quickly');
    expect(body).toContain('- Protective suit');
    expect(body).toContain('hive\n  frames: 10');
    for (const marker of [
      'SCRIPT_SHOULD_NOT_APPEAR',
      'NAV_SHOULD_NOT_APPEAR',
      'FOOTER_SHOULD_NOT_APPEAR',
      'HIDDEN_SHOULD_NOT_APPEAR',
      'NOSCRIPT_SHOULD_NOT_APPEAR',
      'font-family',
    ]) {
      expect(body).not.toContain(marker);
    }
    expect(links).toBeDefined();
    const linkLines = links!.split('\n');
    // Content links first, resolved against the page; navigation after; no #, javascript: or mailto:.
    expect(linkLines[0]).toBe(`1. a single hive — ${server.url}/guides/first-hive.html`);
    expect(linkLines[1]).toBe('2. city regulations — https://example.org/regulations#city');
    expect(links).toContain(`${server.url}/about`);
    expect(links).not.toMatch(/javascript:|mailto:|#top/);
  });

  it('honours <base href>, drops duplicate links and caps the link count', async () => {
    const tool = fetchPageTool({ fetch: { maxLinks: 1 } });
    const text = okText(await tool.run([`${server.url}/list`], testContext()));
    expect(text).toContain('# Index');
    expect(text).toContain('- Alpha\n- Beta');
    expect(text).not.toContain('SCRIPT_TEXT');
    expect(text.split('\nLinks:\n')[1]).toBe(`1. Alpha — ${server.url}/docs/a.html`);
  });

  it('renders Markdown with absolute links in markdown mode', async () => {
    const text = okText(
      await fetchPageTool().run([`${server.url}/article`, 'markdown'], testContext()),
    );
    expect(text).toContain('## Getting started');
    expect(text).toContain(`[a single hive](${server.url}/guides/first-hive.html)`);
    expect(text).not.toContain('SCRIPT_SHOULD_NOT_APPEAR');
  });

  it('rejects an unknown mode', async () => {
    const error = errorOf(
      await fetchPageTool().run([`${server.url}/article`, 'pdf'], testContext()),
    );
    expect(error.kind).toBe('invalid_args');
    expect(error.message).toMatch(/"text" or "markdown"/);
  });
});

describe('fetchPage: redirects', () => {
  it('follows a chain of redirects and reports the final address', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/hop1`], testContext()));
    expect(text).toContain(`URL: ${server.url}/list`);
    expect(text).toContain(`(redirected from ${server.url}/hop1)`);
    expect(requests).toEqual(['/hop1', '/hop2', '/hop3', '/list']);
  });

  it('refuses a redirect loop after 5 hops', async () => {
    const error = errorOf(await fetchPageTool().run([`${server.url}/loop`], testContext()));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/Too many redirects.*5 hops/);
    expect(requests).toHaveLength(6);
  });

  it('re-checks the scheme of every hop', async () => {
    const error = errorOf(await fetchPageTool().run([`${server.url}/to-file`], testContext()));
    expect(error.kind).toBe('invalid_args');
    expect(error.message).toMatch(/Refused "file:" URL \(redirected from/);
  });
});

describe('fetchPage: limits', () => {
  it('stops reading a 10 MB body at the cap and says the page was cut', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/big`], testContext()));
    expect(text).toContain('Note: the page was cut at 2 MB');
    // The server sees the client hang up long before the 10 MB are sent.
    await waitUntil(() => bigBody.closed, 'the big body to close');
    expect(bigBody.finished).toBe(false);
    expect(bigBody.written).toBeLessThan(TEN_MB);
  });

  it('times out on a server that never answers', async () => {
    const error = errorOf(
      await fetchPageTool({ fetch: { timeoutMs: 200 } }).run([`${server.url}/slow`], testContext()),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/Timed out after 0\.2 s fetching/);
  });

  it('times out on a body that stalls half way', async () => {
    const error = errorOf(
      await fetchPageTool({ fetch: { timeoutMs: 200 } }).run(
        [`${server.url}/slow-body`],
        testContext(),
      ),
    );
    expect(error.kind).toBe('timeout');
  });

  it("stops when the turn's signal aborts", async () => {
    const controller = new AbortController();
    const pending = fetchPageTool().run([`${server.url}/slow`], testContext(controller.signal));
    await waitUntil(() => requests.includes('/slow'), 'the /slow request');
    controller.abort();
    const error = errorOf(await pending);
    expect(error.kind).toBe('aborted');
  });
});

describe('fetchPage: charsets', () => {
  it('decodes GBK named in the Content-Type header', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/gbk-header`], testContext()));
    expect(text).toContain('你好，世界');
  });

  it('decodes GB2312 named only in <meta http-equiv>', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/gbk-meta`], testContext()));
    expect(text).toContain('Title: 你好，世界');
    expect(text).toContain('\n你好，世界');
  });
});

describe('fetchPage: content types', () => {
  it.each([
    ['/image', 'image/png'],
    ['/pdf', 'application/pdf'],
  ])('refuses %s, naming %s', async (route, type) => {
    const error = errorOf(await fetchPageTool().run([`${server.url}${route}`], testContext()));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toContain(type);
    expect(error.message).toContain('browse(url)');
  });

  it('refuses an untyped binary body', async () => {
    const error = errorOf(
      await fetchPageTool().run([`${server.url}/untyped-binary`], testContext()),
    );
    expect(error.kind).toBe('unsupported');
  });

  it('returns text/plain as it is', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/plain`], testContext()));
    expect(text).toContain('Content-Type: text/plain; charset=utf-8');
    expect(text).toContain('line one\n  indented <b>not html</b>');
  });

  it('returns JSON pretty-printed', async () => {
    const text = okText(await fetchPageTool().run([`${server.url}/json`], testContext()));
    expect(text).toContain('"name": "cogito"');
  });

  it('reports 404 as not_found', async () => {
    const error = errorOf(await fetchPageTool().run([`${server.url}/missing`], testContext()));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('404');
  });
});

describe('fetchPage: schemes', () => {
  it.each([
    'file:///etc/passwd',
    'data:text/html,<b>hi</b>',
    'javascript:alert(1)',
    'ftp://example.com/file.txt',
    'FILE:///etc/hosts',
  ])('refuses %s without any request', async (url) => {
    const spy = vi.fn<typeof fetch>();
    const error = errorOf(await fetchPageTool({}, spy).run([url], testContext()));
    expect(error.kind).toBe('invalid_args');
    expect(error.message).toMatch(/only http and https/);
    expect(spy).not.toHaveBeenCalled();
  });

  it('reads a bare host as https', async () => {
    const spy = vi.fn<typeof fetch>(
      async () => new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } }),
    );
    okText(await fetchPageTool({}, spy).run(['example.com/page'], testContext()));
    expect(String(spy.mock.calls[0]?.[0])).toBe('https://example.com/page');
  });

  it('explains an unreachable server', async () => {
    const closed = await startServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const error = errorOf(await fetchPageTool().run([`${url}/x`], testContext()));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});
