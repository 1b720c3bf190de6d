import { performance } from 'node:perf_hooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openaiCompatible.js';
import { startScriptedServer } from '../helpers/scriptedServer.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';

describe('interrupt', () => {
  let h: Harness;

  // The first abort in a process pays one-time lazy initialisation inside Node and undici
  // (15-40 ms on a loaded machine); that is not connection latency, so warm it up once.
  // bench/interrupt measures the cold case too.
  beforeAll(async () => {
    const warm = await startScriptedServer();
    warm.push({ kind: 'stream', content: ['a', 'b'], stallAfterChunks: 1 });
    const controller = new AbortController();
    const p = createOpenAICompatibleProvider({ baseURL: warm.url, model: 'm' });
    for await (const e of p.stream({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    })) {
      if (e.type === 'text_delta') controller.abort();
    }
    await warm.waitForClose(0);
    await warm.close();
  });
  afterEach(async () => h?.dispose());

  it('closes the HTTP connection, lands in AWAITING_INPUT and keeps the partial reply marked interrupted', async () => {
    h = await createHarness();
    // A slow stream: 200 chunks, 20 ms apart.
    h.server.push({
      kind: 'stream',
      content: Array.from({ length: 200 }, (_, i) => `w${i} `),
      chunkDelayMs: 20,
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'tell me a long story' });
    await waitForStore(h.agent.store, (s) => s.liveReply.includes('w3 '), 'some streamed text');

    const abortAt = performance.now();
    h.agent.send({ type: 'interrupt' });
    expect(h.agent.state).toBe('AWAITING_INPUT');
    const req = await h.server.waitForClose(0);
    const closeMs = req.closedAt! - abortAt;
    expect(
      closeMs,
      `the server saw the close ${closeMs.toFixed(1)} ms after the interrupt`,
    ).toBeLessThan(50);

    await h.agent.idle();
    const messages = h.session.messages();
    const last = messages[messages.length - 1]!;
    expect(last.role).toBe('assistant');
    expect(last.interrupted).toBe(true);
    expect(last.content).toMatch(/^w0 w1 w2 w3 /);
    expect(last.content).not.toContain('w199');
    // The store shows the same, and the machine stays put: no new turn starts by itself.
    expect(h.agent.store.getState().messages.at(-1)?.interrupted).toBe(true);
    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(h.server.requests).toHaveLength(1);
  });

  it('the interrupted reply goes back to the model marked as interrupted on the next turn', async () => {
    h = await createHarness();
    h.server.push({
      kind: 'stream',
      content: Array.from({ length: 100 }, () => 'la '),
      chunkDelayMs: 20,
    });
    h.server.push({ kind: 'stream', content: 'fine. [WAIT]' });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'sing' });
    await waitForStore(h.agent.store, (s) => s.liveReply.length > 6, 'some streamed text');
    h.agent.send({ type: 'interrupt' });
    await h.agent.idle();
    h.agent.send({ type: 'submit', text: 'stop singing' });
    const req = await h.server.waitForRequest(1);
    const msgs = req.body.messages as { role: string; content: string }[];
    const assistant = msgs.find((m) => m.role === 'assistant')!;
    expect(assistant.content).toMatch(/^la la /);
    expect(assistant.content).toContain('[interrupted by the user]');
    expect(msgs.at(-1)).toEqual({ role: 'user', content: 'stop singing' });
  });

  it('a tool call not yet started when the abort lands never runs', async () => {
    let ran = 0;
    let releaseFirst!: () => void;
    const firstStarted = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    h = await createHarness({
      extraTools: [
        {
          name: 'slow',
          description: 'waits for the abort',
          kind: 'read',
          params: [{ name: 'id', type: 'string', description: 'id' }],
          run: (_args, ctx) =>
            new Promise((resolve) => {
              ran += 1;
              releaseFirst();
              ctx.signal.addEventListener('abort', () =>
                resolve({ ok: false, error: { kind: 'aborted', message: 'aborted' } }),
              );
            }),
        },
      ],
    });
    h.server.push({
      kind: 'stream',
      content: '[TOOL] slow("1") [/TOOL]\n[TOOL] slow("2") [/TOOL]\n[TOOL] slow("3") [/TOOL]',
    });
    h.agent.start();
    h.agent.send({ type: 'submit', text: 'go' });
    await firstStarted;
    h.agent.send({ type: 'interrupt' });
    await h.agent.idle();
    expect(ran).toBe(1);
    const log = h.agent.store.getState().toolLog;
    // The two that never started show as skipped (as a restart rebuilds them), not as run.
    expect(log.map((e) => [e.call, e.status])).toEqual([
      ['slow("1")', 'error'],
      ['slow("2")', 'skipped'],
      ['slow("3")', 'skipped'],
    ]);
  });
});
