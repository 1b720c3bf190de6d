/** Chat messages → node-llama-cpp chat history, and the channel the stream reads from. */
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../src/providers/local/channel.js';
import { toLlamaHistory } from '../../src/providers/local/history.js';

describe('toLlamaHistory', () => {
  it('puts the system prompt first and alternates user and model turns', () => {
    expect(
      toLlamaHistory([
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning: 'not sent back' },
        { role: 'user', content: 'results' },
      ]),
    ).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'hi' },
      { type: 'model', response: ['hello'] },
      { type: 'user', text: 'results' },
      { type: 'model', response: [] },
    ]);
  });

  it('joins system messages into one leading prompt and merges repeated roles', () => {
    expect(
      toLlamaHistory([
        { role: 'system', content: 'one' },
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'system', content: 'two' },
        { role: 'assistant', content: 'x' },
        { role: 'assistant', content: 'y' },
        { role: 'user', content: 'c' },
      ]),
    ).toEqual([
      { type: 'system', text: 'one\n\ntwo' },
      { type: 'user', text: 'a\n\nb' },
      { type: 'model', response: ['x\n\ny'] },
      { type: 'user', text: 'c' },
      { type: 'model', response: [] },
    ]);
  });

  it('starts a fresh reply after a history that ends on the model', () => {
    const items = toLlamaHistory([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'working' },
    ]);
    expect(items.slice(-3)).toEqual([
      { type: 'model', response: ['working'] },
      { type: 'user', text: '' },
      { type: 'model', response: [] },
    ]);
  });

  it('needs no system prompt', () => {
    expect(toLlamaHistory([{ role: 'user', content: 'hi' }])).toEqual([
      { type: 'user', text: 'hi' },
      { type: 'model', response: [] },
    ]);
  });
});

describe('createChannel', () => {
  it('yields pushed values in order and ends on close', async () => {
    const ch = createChannel<number>();
    ch.push(1);
    ch.push(2);
    setImmediate(() => {
      ch.push(3);
      ch.close();
    });
    const got: number[] = [];
    for await (const v of ch) got.push(v);
    expect(got).toEqual([1, 2, 3]);
  });

  it('ends a waiting reader at once on close(drop), dropping what is queued', async () => {
    const ch = createChannel<number>();
    const reader = (async () => {
      const got: number[] = [];
      for await (const v of ch) {
        got.push(v);
        ch.push(99);
        ch.close(true);
      }
      return got;
    })();
    ch.push(1);
    expect(await reader).toEqual([1]);
    ch.push(2);
    expect(ch.closed).toBe(true);
  });
});
