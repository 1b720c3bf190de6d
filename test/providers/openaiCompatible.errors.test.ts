import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openaiCompatible.js';
import { collectEvents } from '../helpers/collectEvents.js';
import { MESSAGES, useOpenAIHarness } from './openaiHarness.js';

const h = useOpenAIHarness();

/** A URL where nothing listens: bind a port, then free it. */
async function closedPortURL(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** A fetch that answers every request with the given raw body, for shapes the server never sends. */
function fakeFetch(body: string, status = 200): typeof fetch {
  return (async () =>
    new Response(body, {
      status,
      headers: { 'content-type': 'text/event-stream' },
    })) as unknown as typeof fetch;
}

describe('openai-compatible provider: failures end with done(error), never a throw', () => {
  it('401: names the env var and --setup, never the key', async () => {
    await h.serve({ requireKey: 'sk-right' });
    const { done } = await h.run({ apiKey: 'sk-wrong-secret-123' });
    expect(done.reason).toBe('error');
    expect(done.error).toMatchObject({ kind: 'auth', status: 401 });
    expect(done.error?.message).toMatch(/API key was rejected.*COGITO_API_KEY.*--setup/);
    expect(done.error?.message).not.toContain('sk-wrong-secret-123');
  });

  it('401 without a key: says that none is set', async () => {
    await h.serve({ requireKey: 'sk-right' });
    const { done } = await h.run();
    expect(done.error?.kind).toBe('auth');
    expect(done.error?.message).toMatch(/requires an API key and none is set.*COGITO_API_KEY/);
  });

  it('scrubs the key even when the server echoes it back', async () => {
    await h.serve();
    h.server.push({
      kind: 'error',
      status: 400,
      body: { error: { message: 'bad key sk-echoed-999 here' } },
    });
    const { done } = await h.run({ apiKey: 'sk-echoed-999' });
    expect(done.error?.kind).toBe('bad_request');
    expect(done.error?.message).toContain('bad key [redacted secret] here');
    expect(done.error?.message).not.toContain('sk-echoed-999');
  });

  it('404: names the model and the base URL', async () => {
    await h.serve();
    h.server.push({
      kind: 'error',
      status: 404,
      body: { error: { message: 'The model does not exist' } },
    });
    const { done } = await h.run();
    expect(done.error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(done.error?.message).toContain('"test-model"');
    expect(done.error?.message).toContain(h.server.url);
    expect(done.error?.message).toContain('The model does not exist');
  });

  it('500: server error with the status and the server detail', async () => {
    await h.serve();
    h.server.push({ kind: 'error', status: 500, body: { message: 'engine crashed' } });
    const { done } = await h.run();
    expect(done.error).toMatchObject({ kind: 'server', status: 500 });
    expect(done.error?.message).toMatch(/HTTP 500: engine crashed/);
  });

  it('429: Retry-After in seconds', async () => {
    await h.serve();
    h.server.push({ kind: 'error', status: 429, retryAfter: '7' });
    const { done } = await h.run();
    expect(done.error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000 });
    expect(done.error?.message).toMatch(/rate limited.*7s/);
  });

  it('429: Retry-After as an HTTP date', async () => {
    await h.serve();
    h.server.push({
      kind: 'error',
      status: 429,
      retryAfter: new Date(Date.now() + 30_000).toUTCString(),
    });
    const { done } = await h.run();
    expect(done.error?.kind).toBe('rate_limit');
    expect(done.error?.retryAfterMs).toBeGreaterThan(27_000);
    expect(done.error?.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('429: retry-after-ms wins over Retry-After', async () => {
    await h.serve();
    h.server.push({
      kind: 'error',
      status: 429,
      retryAfter: '9',
      headers: { 'retry-after-ms': '1500' },
    });
    expect((await h.run()).done.error?.retryAfterMs).toBe(1500);
  });

  it('malformed SSE line: bad_response, and the text before it is kept', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['good ', 'more'], malformedAfterChunks: 1 });
    const { text, done } = await h.run();
    expect(text).toBe('good ');
    expect(done.error?.kind).toBe('bad_response');
    expect(done.error?.message).toContain('malformed');
  });

  it('stall: times out after streamIdleTimeoutMs and closes the connection', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['a', 'b'], stallAfterChunks: 1 });
    const { text, done } = await h.run({ streamIdleTimeoutMs: 200 });
    expect(text).toBe('a');
    expect(done.error?.kind).toBe('timeout');
    expect(done.error?.message).toMatch(/nothing for 0\.2s.*streamIdleTimeoutMs/);
    expect((await h.server.waitForClose(0)).closedAt).toBeDefined();
  });

  it('hang before headers: requestTimeoutMs gives a timeout', async () => {
    await h.serve();
    h.server.push({ kind: 'hang' });
    const { done } = await h.run({ requestTimeoutMs: 200 });
    expect(done.error?.kind).toBe('timeout');
    expect(done.error?.message).toMatch(/no answer from .* within 0\.2s.*requestTimeoutMs/);
  });

  it('dropped connection mid-reply: network error, partial text kept', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['par', 'tial', 'never'], dropAfterChunks: 2 });
    const { text, done } = await h.run();
    expect(text).toBe('partial');
    expect(done.error?.kind).toBe('network');
    expect(done.error?.message).toContain('dropped mid-reply');
  });

  it('connection refused: network error naming the URL', async () => {
    const url = await closedPortURL();
    const { done } = await collectEvents(
      createOpenAICompatibleProvider({ baseURL: url, model: 'm' }).stream({
        messages: MESSAGES,
        signal: new AbortController().signal,
      }),
    );
    expect(done.error?.kind).toBe('network');
    expect(done.error?.message).toContain(url);
    expect(done.error?.message).toContain('connection refused');
  });

  it('an invalid base URL is reported, not thrown', async () => {
    const { done } = await collectEvents(
      createOpenAICompatibleProvider({ baseURL: 'api.deepseek.com', model: 'm' }).stream({
        messages: MESSAGES,
        signal: new AbortController().signal,
      }),
    );
    expect(done.error?.kind).toBe('bad_request');
    expect(done.error?.message).toContain('"api.deepseek.com"');
  });

  it('an error event inside the stream is a server error', async () => {
    const body =
      'data: {"choices":[{"delta":{"content":"x"}}]}\n\ndata: {"error":{"message":"overloaded"}}\n\n';
    const { text, done } = await h.run({
      baseURL: 'http://127.0.0.1:1/v1',
      fetch: fakeFetch(body),
    });
    expect(text).toBe('x');
    expect(done.error?.kind).toBe('server');
    expect(done.error?.message).toContain('overloaded');
  });

  it('a clean end without finish_reason counts as a dropped reply', async () => {
    const body = 'data: {"choices":[{"delta":{"content":"half"}}]}\n\n';
    const { text, done } = await h.run({
      baseURL: 'http://127.0.0.1:1/v1',
      fetch: fakeFetch(body),
    });
    expect(text).toBe('half');
    expect(done.error?.kind).toBe('network');
  });

  it('a 200 answer that is not a stream at all is a bad_response', async () => {
    const { done } = await h.run({
      baseURL: 'http://127.0.0.1:1/v1',
      fetch: fakeFetch('<html>hi</html>'),
    });
    expect(done.error?.kind).toBe('bad_response');
    expect(done.error?.message).toContain('/v1');
  });

  it('an injected fetch that throws is a network error', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }),
      });
    }) as unknown as typeof fetch;
    const { done } = await h.run({ baseURL: 'http://nowhere.invalid/v1', fetch: failing });
    expect(done.error?.kind).toBe('network');
    expect(done.error?.message).toContain('ENOTFOUND');
  });
});
