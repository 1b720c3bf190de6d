import { beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openaiCompatible.js';
import type { ProviderEvent, StreamRequest } from '../../src/providers/types.js';
import { collectEvents } from '../helpers/collectEvents.js';
import { startScriptedServer } from '../helpers/scriptedServer.js';
import { MESSAGES, useOpenAIHarness } from './openaiHarness.js';

const h = useOpenAIHarness();

describe('openai-compatible provider: streaming', () => {
  it('streams text, sends the expected request body and reports usage', async () => {
    await h.serve();
    h.server.push({
      kind: 'stream',
      content: 'Hello there [WAIT]',
      usage: { prompt_tokens: 12, completion_tokens: 5 },
    });
    const { events, text, done } = await h.run();
    expect(text).toBe('Hello there [WAIT]');
    expect(done).toEqual({ type: 'done', reason: 'stop' });
    expect(events.at(-2)).toEqual({
      type: 'usage',
      usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 },
    });
    const req = await h.server.waitForRequest(0);
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body).toMatchObject({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are Cogito.' },
        { role: 'user', content: 'hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('routes reasoning_content to the reasoning channel, before the text', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', reasoning: 'Let me think.', content: 'Answer.' });
    const { events, text, reasoning } = await h.run();
    expect(reasoning).toBe('Let me think.');
    expect(text).toBe('Answer.');
    const firstText = events.findIndex((e) => e.type === 'text_delta');
    const lastReasoning = events.findLastIndex((e) => e.type === 'reasoning_delta');
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it('routes the `reasoning` field to the reasoning channel', async () => {
    await h.serve();
    h.server.push({
      kind: 'stream',
      reasoning: ['a', 'b'],
      reasoningField: 'reasoning',
      content: 'c',
    });
    const { text, reasoning } = await h.run();
    expect({ text, reasoning }).toEqual({ text: 'c', reasoning: 'ab' });
  });

  it('routes <think> inside content to reasoning, with tags split across chunks', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['<th', 'ink>plan ', 'it</thi', 'nk>\n\nDo', 'ne'] });
    const { text, reasoning } = await h.run();
    expect({ text, reasoning }).toEqual({ text: 'Done', reasoning: 'plan it' });
  });

  it('reports finish_reason length as done reason length', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: 'cut', finishReason: 'length' });
    expect((await h.run()).done).toEqual({ type: 'done', reason: 'length' });
  });

  it('sends temperature, max_tokens and extraBody, but never lets extraBody replace the core', async () => {
    await h.serve();
    await h.run(
      { temperature: 0.3, extraBody: { top_k: 5, model: 'hijack', stream: false } },
      { maxTokens: 100 },
    );
    const { body } = await h.server.waitForRequest(0);
    expect(body).toMatchObject({
      temperature: 0.3,
      max_tokens: 100,
      top_k: 5,
      model: 'test-model',
      stream: true,
    });
  });

  it('leaves reasoning out of history by default, and sends it when the quirk asks', async () => {
    await h.serve();
    const messages: StreamRequest['messages'] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning: 'because' },
      { role: 'user', content: 'q2' },
    ];
    await h.run({}, { messages });
    await h.run({ sendReasoningInHistory: true }, { messages });
    expect(h.server.requests[0]?.body.messages[1]).toEqual({ role: 'assistant', content: 'a' });
    expect(h.server.requests[1]?.body.messages[1]).toEqual({
      role: 'assistant',
      content: 'a',
      reasoning_content: 'because',
    });
  });

  it('sends the bearer key when set, and no Authorization header without one', async () => {
    await h.serve();
    await h.run({ apiKey: 'sk-local' });
    await h.run();
    expect(h.server.requests[0]?.headers['authorization']).toBe('Bearer sk-local');
    expect(h.server.requests[1]?.headers['authorization']).toBeUndefined();
  });

  it('uses the injected fetch', async () => {
    await h.serve();
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    expect((await h.run({ fetch: counting })).text).toBe('ok [WAIT]');
    expect(calls).toBe(1);
  });
});

describe('openai-compatible provider: abort', () => {
  // The first abort in a process pays one-time lazy initialisation inside Node and undici
  // (DOMException, abort handlers: 15-40 ms on a loaded machine). That is not connection
  // latency, so run one abort before measuring the steady state.
  beforeAll(async () => {
    const warm = await startScriptedServer();
    warm.push({ kind: 'stream', content: ['a', 'b'], stallAfterChunks: 1 });
    const controller = new AbortController();
    const p = createOpenAICompatibleProvider({ baseURL: warm.url, model: 'm' });
    for await (const event of p.stream({ messages: MESSAGES, signal: controller.signal })) {
      if (event.type === 'text_delta') controller.abort();
    }
    await warm.waitForClose(0);
    await warm.close();
  });

  it('closes the HTTP connection within 50 ms of abort and ends with aborted', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['one ', 'two ', 'three'], stallAfterChunks: 2 });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    let abortAt = 0;
    for await (const event of h.provider().stream({
      messages: MESSAGES,
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === 'text_delta' && event.text === 'two ') {
        abortAt = performance.now();
        controller.abort();
      }
    }
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'aborted' });
    const rec = await h.server.waitForClose(0);
    expect(rec.closedAt! - abortAt).toBeLessThan(50);
  });

  it('aborts while waiting for headers', async () => {
    await h.serve();
    h.server.push({ kind: 'hang' });
    const controller = new AbortController();
    const pending = collectEvents(
      h.provider().stream({ messages: MESSAGES, signal: controller.signal }),
    );
    await h.server.waitForRequest(0);
    const abortAt = performance.now();
    controller.abort();
    expect((await pending).done).toEqual({ type: 'done', reason: 'aborted' });
    expect((await h.server.waitForClose(0)).closedAt! - abortAt).toBeLessThan(50);
  });

  it('sends nothing when the signal is already aborted', async () => {
    await h.serve();
    const controller = new AbortController();
    controller.abort();
    expect((await h.run({}, { signal: controller.signal })).done.reason).toBe('aborted');
    expect(h.server.requests).toHaveLength(0);
  });

  it('closes the connection when the consumer stops iterating early', async () => {
    await h.serve();
    h.server.push({ kind: 'stream', content: ['a', 'b'], stallAfterChunks: 1 });
    for await (const event of h.provider().stream({
      messages: MESSAGES,
      signal: new AbortController().signal,
    })) {
      if (event.type === 'text_delta') break;
    }
    expect((await h.server.waitForClose(0)).closedAt).toBeDefined();
  });
});
