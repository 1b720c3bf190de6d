import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scriptedServer.js';

let server: ScriptedServer;
afterEach(async () => {
  await server?.close();
});

interface Chunk {
  id: string;
  object: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function chat(body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

/** Reads a whole SSE body into its `data:` payloads. */
async function dataLines(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

async function streamChunks(body: Record<string, unknown> = {}): Promise<Chunk[]> {
  const lines = await dataLines(await chat({ stream: true, ...body }));
  expect(lines.at(-1)).toBe('[DONE]');
  return lines.slice(0, -1).map((line) => JSON.parse(line) as Chunk);
}

const contentOf = (chunks: Chunk[]): string[] =>
  chunks.flatMap((c) => {
    const content = c.choices[0]?.delta['content'];
    return typeof content === 'string' && content ? [content] : [];
  });

describe('scripted server', () => {
  it('answers queued steps in order, then the default step', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['first'] }, { kind: 'stream', content: ['second'] });
    expect(contentOf(await streamChunks())).toEqual(['first']);
    expect(contentOf(await streamChunks())).toEqual(['second']);
    expect(contentOf(await streamChunks()).join('')).toBe('ok [WAIT]');
    expect(server.requests.map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('uses setDefault, including a function of the request', async () => {
    server = await startScriptedServer();
    server.setDefault((req) => ({
      kind: 'stream',
      content: [`echo ${req.body.messages[0].content}`],
    }));
    expect(contentOf(await streamChunks())).toEqual(['echo hi']);
    server.setDefault({ kind: 'error', status: 503 });
    expect((await chat({ stream: true })).status).toBe(503);
  });

  it('sends real chunk JSON: reasoning first, 4-char pieces, finish, usage, [DONE]', async () => {
    server = await startScriptedServer();
    server.push({
      kind: 'stream',
      reasoning: ['think'],
      content: '你好世界和平ab',
      usage: { prompt_tokens: 3, completion_tokens: 5 },
    });
    const chunks = await streamChunks({ stream_options: { include_usage: true } });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id)).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({
      role: 'assistant',
      reasoning_content: 'think',
    });
    expect(contentOf(chunks)).toEqual(['你好世界', '和平ab']);
    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
    });
  });

  it('sends usage only when include_usage is asked for and usage is not false', async () => {
    server = await startScriptedServer();
    expect((await streamChunks()).some((c) => c.usage)).toBe(false);
    server.push({ kind: 'stream', content: 'x', usage: false });
    expect(
      (await streamChunks({ stream_options: { include_usage: true } })).some((c) => c.usage),
    ).toBe(false);
  });

  it('uses the `reasoning` field and a custom finish reason when asked', async () => {
    server = await startScriptedServer();
    server.push({
      kind: 'stream',
      reasoning: 'hmm',
      reasoningField: 'reasoning',
      content: ['x'],
      finishReason: 'length',
    });
    const chunks = await streamChunks();
    expect(chunks[0]?.choices[0]?.delta['reasoning']).toBe('hmm');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('length');
  });

  it('answers stream:false with one JSON completion', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['sum', 'mary'], reasoning: 'r' });
    const body = (await (await chat({ stream: false })).json()) as {
      object: string;
      choices: { message: unknown }[];
      usage: { total_tokens: number };
    };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'summary',
      reasoning_content: 'r',
    });
    expect(body.usage.total_tokens).toBeGreaterThan(0);
  });

  it('sends error steps with status, body and Retry-After', async () => {
    server = await startScriptedServer();
    server.push(
      { kind: 'error', status: 429, retryAfter: '3', headers: { 'retry-after-ms': '2500' } },
      { kind: 'error', status: 400, body: { message: 'vllm style' } },
      { kind: 'error', status: 502, body: 'Bad Gateway' },
    );
    const limited = await chat({ stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('retry-after-ms')).toBe('2500');
    expect(await limited.json()).toMatchObject({ error: { message: 'scripted error 429' } });
    expect(await (await chat({})).json()).toEqual({ message: 'vllm style' });
    expect(await (await chat({})).text()).toBe('Bad Gateway');
  });

  it('inserts a malformed line and carries on', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['a', 'b'], malformedAfterChunks: 1 });
    const lines = await dataLines(await chat({ stream: true }));
    expect(lines[1]).toBe('{not json');
    expect(lines.at(-1)).toBe('[DONE]');
  });

  it('drops the socket after N chunks', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['a', 'b', 'c'], dropAfterChunks: 2 });
    const res = await chat({ stream: true });
    await expect(res.text()).rejects.toThrow();
    await expect(server.waitForClose(0)).rejects.toThrow(/dropped/);
  });

  it('records the request and resolves waitForRequest for a later request', async () => {
    server = await startScriptedServer();
    const waiting = server.waitForRequest(1);
    await (await chat({ stream: true })).text();
    await (await chat({ stream: true, extra: 1 }, { headers: { 'x-test': 'yes' } })).text();
    const rec = await waiting;
    expect(rec).toMatchObject({
      index: 1,
      path: '/v1/chat/completions',
      body: { extra: 1 },
      completed: true,
    });
    expect(rec.headers['x-test']).toBe('yes');
    await expect(server.waitForClose(0)).rejects.toThrow(/completed/);
  });

  it('rejects waitForRequest with a clear message at its deadline', async () => {
    server = await startScriptedServer();
    await expect(server.waitForRequest(0, 30)).rejects.toThrow(
      /waitForRequest\(0\).*0 chat request/,
    );
  });

  it('records when the client closes a stalled stream', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['a', 'b', 'c'], stallAfterChunks: 1 });
    const controller = new AbortController();
    const res = await chat({ stream: true }, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"content":"a"');
    const abortAt = performance.now();
    controller.abort();
    const rec = await server.waitForClose(0);
    expect(rec.completed).toBe(false);
    expect(rec.closedAt! - abortAt).toBeGreaterThanOrEqual(0);
  });

  it('hangs until the client gives up', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'hang' });
    const controller = new AbortController();
    const pending = chat({ stream: true }, { signal: controller.signal });
    await server.waitForRequest(0);
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect((await server.waitForClose(0)).closedAt).toBeDefined();
  });

  it('close() ends hanging requests and rejects pending waiters', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'hang' });
    const pending = chat({ stream: true });
    await server.waitForRequest(0);
    const waiter = expect(server.waitForRequest(5)).rejects.toThrow(/closed first/);
    await server.close();
    await expect(pending).rejects.toThrow();
    await waiter;
  });

  it('serves the models endpoint', async () => {
    server = await startScriptedServer();
    const list = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(list.data.map((m) => m.id)).toEqual(['scripted-model']);
    server.setModels(['a', 'b']);
    const next = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(next.data.map((m) => m.id)).toEqual(['a', 'b']);
    server.setModels({ status: 500 });
    expect((await fetch(`${server.url}/models`)).status).toBe(500);
    expect(server.requests).toHaveLength(0);
  });

  it('answers unknown paths with 404 JSON', async () => {
    server = await startScriptedServer();
    const res = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { message: expect.stringContaining('/v1/embeddings') },
    });
  });

  it('requireKey: 401 without the right bearer key, served with it', async () => {
    server = await startScriptedServer({ requireKey: 'sk-right' });
    expect((await chat({ stream: true })).status).toBe(401);
    expect(
      (await chat({ stream: true }, { headers: { authorization: 'Bearer sk-wrong' } })).status,
    ).toBe(401);
    const ok = await chat({ stream: true }, { headers: { authorization: 'Bearer sk-right' } });
    expect(ok.status).toBe(200);
    await ok.text();
    expect((await fetch(`${server.url}/models`)).status).toBe(401);
    // Rejected calls are recorded too, and did not use up the script.
    expect(server.requests).toHaveLength(3);
  });

  it('streams with delays between chunks', async () => {
    server = await startScriptedServer();
    server.push({ kind: 'stream', content: ['a', 'b', 'c'], chunkDelayMs: 20 });
    const start = performance.now();
    expect(contentOf(await streamChunks())).toEqual(['a', 'b', 'c']);
    expect(performance.now() - start).toBeGreaterThanOrEqual(35);
  });
});
