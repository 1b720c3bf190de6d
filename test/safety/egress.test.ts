/**
 * The network egress guard, tried as a hostile page would: every spelling of this machine,
 * the private ranges, link-local and metadata addresses, directly and after a redirect.
 * Real loopback servers stand in for the targets: a refused request must never reach them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebTools } from '../../src/tools/web/index.js';
import type { WebToolsSettings, WebToolsDeps } from '../../src/tools/web/index.js';
import type { Tool } from '../../src/tools/types.js';
import { errorOf, okText, startServer, testContext } from '../tools/web/helpers.js';
import type { TestServer } from '../tools/web/helpers.js';

function tool(name: string, config: WebToolsSettings = {}, deps: WebToolsDeps = {}): Tool {
  return createWebTools(config, deps).find((t) => t.name === name)!;
}

let target: TestServer;
let hits: string[];

beforeEach(async () => {
  hits = [];
  target = await startServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/bounce-local') {
      res.writeHead(302, { location: `http://localhost:${port()}/admin` }).end();
    } else if (req.url === '/bounce-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else res.writeHead(200, { 'content-type': 'text/plain' }).end('router admin page');
  });
});
afterEach(async () => target.close());

const port = (): string => new URL(target.url).port;

describe('fetchPage refuses this machine in any spelling, before a byte is sent', () => {
  const spellings = [
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['[::ffff:127.0.0.1]', '127.0.0.1'],
    ['[::1]', '::1'],
  ] as const;
  for (const [host, address] of spellings) {
    it(`http://${host}:<port>/ is refused, naming ${address} and the setting`, async () => {
      const error = errorOf(
        await tool('fetchPage').run([`http://${host}:${port()}/`], testContext()),
      );
      expect(error.kind).toBe('denied');
      expect(error.message).toContain(address);
      expect(error.message).toContain('fetch.allowHosts');
      expect(error.message).toContain('fetch.allowPrivateNetwork');
      expect(hits).toEqual([]);
    });
  }
});

describe('fetchPage refuses private, link-local and metadata addresses', () => {
  const addresses = [
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '224.0.0.1',
    '[fd00::1]',
    '[fe80::1]',
    '[::ffff:192.168.1.1]',
    '[::ffff:169.254.169.254]',
  ];
  for (const host of addresses) {
    it(`http://${host}/ is refused at once (no connection attempt)`, async () => {
      const started = performance.now();
      const error = errorOf(await tool('fetchPage').run([`http://${host}/`], testContext()));
      expect(error.kind).toBe('denied');
      expect(error.message).toMatch(/Refused to connect to /);
      // A connection attempt to an unroutable address would hang until the timeout.
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  }

  it('a name whose DNS answers include a private address is refused', async () => {
    const resolver = async (): Promise<{ address: string; family: 4 }[]> => [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.0.1', family: 4 },
    ];
    const seen: string[] = [];
    const fetch = async (input: string | URL): Promise<Response> => {
      seen.push(String(input));
      return new Response('never');
    };
    const error = errorOf(
      await tool('fetchPage', {}, { resolver, fetch }).run(['http://mixed.test/'], testContext()),
    );
    expect(error.kind).toBe('denied');
    expect(error.message).toContain('192.168.0.1');
    expect(error.message).toContain('mixed.test resolves to it');
    expect(seen).toEqual([]);
  });
});

describe('redirects are checked hop by hop', () => {
  it('a public page redirecting to the metadata address is refused at that hop', async () => {
    const resolver = async (): Promise<{ address: string; family: 4 }[]> => [
      { address: '93.184.215.14', family: 4 },
    ];
    const seen: string[] = [];
    const fetch = async (input: string | URL): Promise<Response> => {
      seen.push(String(input));
      return new Response(null, {
        status: 302,
        headers: { location: 'http://169.254.169.254/latest/meta-data/iam/' },
      });
    };
    const error = errorOf(
      await tool('fetchPage', {}, { resolver, fetch }).run(
        ['https://evil.test/page'],
        testContext(),
      ),
    );
    expect(error.kind).toBe('denied');
    expect(error.message).toContain('169.254.169.254');
    expect(seen).toEqual(['https://evil.test/page']);
  });

  it('an allowed private host (fetch.allowHosts) is reachable', async () => {
    const fetchPage = tool('fetchPage', { fetch: { allowHosts: [`127.0.0.1:${port()}`] } });
    const text = okText(await fetchPage.run([`${target.url}/status`], testContext()));
    expect(text).toContain('router admin page');
    expect(hits).toEqual(['/status']);
  });

  it('a redirect from the allowed host to another private address is not followed', async () => {
    const fetchPage = tool('fetchPage', { fetch: { allowHosts: [`127.0.0.1:${port()}`] } });
    for (const bounce of ['/bounce-local', '/bounce-metadata']) {
      const error = errorOf(await fetchPage.run([`${target.url}${bounce}`], testContext()));
      expect(error.kind).toBe('denied');
    }
    // Only the two allowed first hops arrived; localhost:<port>/admin never did.
    expect(hits).toEqual(['/bounce-local', '/bounce-metadata']);
  });

  it('allowHosts with another port does not open this one', async () => {
    const fetchPage = tool('fetchPage', { fetch: { allowHosts: ['127.0.0.1:1'] } });
    expect(errorOf(await fetchPage.run([`${target.url}/`], testContext())).kind).toBe('denied');
    expect(hits).toEqual([]);
  });

  it('fetch.allowPrivateNetwork opens every private destination', async () => {
    const fetchPage = tool('fetchPage', { fetch: { allowPrivateNetwork: true } });
    expect(okText(await fetchPage.run([`http://127.1:${port()}/x`], testContext()))).toContain(
      'router admin page',
    );
  });
});

describe('the connection goes to the address that was checked', () => {
  it('a name allowed by allowHosts is reached at the address the guard resolved', async () => {
    let lookups = 0;
    // Only this resolver knows the name: if the socket did its own lookup, it would fail.
    const resolver = async (): Promise<{ address: string; family: 4 }[]> => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const fetchPage = tool(
      'fetchPage',
      { fetch: { allowHosts: [`searx.internal.test:${port()}`] } },
      { resolver },
    );
    const text = okText(
      await fetchPage.run([`http://searx.internal.test:${port()}/q`], testContext()),
    );
    expect(text).toContain('router admin page');
    expect(lookups).toBe(1);
    expect(hits).toEqual(['/q']);
  });
});

describe('search providers and browse pass the same guard', () => {
  it('a SearXNG on localhost is refused until allowed, then reached', async () => {
    const search = { provider: 'searxng' as const, searxngUrl: `http://localhost:${port()}` };
    const refused = errorOf(await tool('search', { search }).run(['cats'], testContext()));
    expect(refused.kind).toBe('denied');
    expect(hits).toEqual([]);
    const allowed = tool('search', {
      search,
      fetch: { allowHosts: [`localhost:${port()}`] },
    });
    await allowed.run(['cats'], testContext());
    expect(hits).toHaveLength(1);
  });

  it('browse refuses to hand a local address to the browser', async () => {
    const launched: string[][] = [];
    const browse = tool(
      'browse',
      {},
      {
        platform: 'linux',
        runner: {
          run: async () => ({ stdout: '', stderr: '', exitCode: 0 }),
          launch: async (_file: string, args: readonly string[]) => {
            launched.push([...args]);
          },
        } as never,
      },
    );
    const error = errorOf(await browse.run([`http://0x7f.1:${port()}/`], testContext()));
    expect(error.kind).toBe('denied');
    expect(launched).toEqual([]);
  });
});
