/**
 * Native function calls on the wire: `delta.tool_calls` pieces are assembled into whole
 * calls (several by index, arguments in many pieces, a server that numbers by id only), a
 * non-streamed JSON answer is read the same way, and calls and their results go back as
 * `tool_calls` and `tool` messages, with the tools sent as JSON schemas when given.
 */
import { describe, expect, it } from 'vitest';
import type { NativeToolCall } from '../../src/core/messages.js';
import type { ProviderEvent } from '../../src/providers/types.js';
import { useOpenAIHarness } from './openaiHarness.js';

const h = useOpenAIHarness();

const callsOf = (events: ProviderEvent[]): NativeToolCall[] =>
  events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));

describe('native tool calls from an OpenAI-compatible server', () => {
  it('assembles arguments sent in many pieces, after the text, as one call with the server id', async () => {
    const server = await h.serve();
    server.push({
      kind: 'stream',
      content: 'Let me look.',
      toolCalls: [
        { id: 'call_abc', name: 'read', arguments: ['{"pa', 'th": "no', 'tes.md"', '}'] },
      ],
    });
    const got = await h.run();
    expect(got.text).toBe('Let me look.');
    expect(callsOf(got.events)).toEqual([
      { id: 'call_abc', name: 'read', arguments: '{"path": "notes.md"}' },
    ]);
    expect(got.done.reason).toBe('stop');
  });

  it('keeps two interleaved calls apart by index, in index order', async () => {
    const server = await h.serve();
    server.push({
      kind: 'stream',
      interleaveCalls: true,
      toolCalls: [
        { id: 'a', name: 'read', arguments: ['{"path":', '"a.md"}'] },
        { id: 'b', name: 'ls', arguments: ['{"pa', 'th":"."}'] },
      ],
    });
    const got = await h.run();
    expect(callsOf(got.events)).toEqual([
      { id: 'a', name: 'read', arguments: '{"path":"a.md"}' },
      { id: 'b', name: 'ls', arguments: '{"path":"."}' },
    ]);
  });

  it('tells calls apart by id when the server sends no index, and makes up an id when it sends none', async () => {
    const server = await h.serve();
    server.push({
      kind: 'stream',
      toolCalls: [
        { id: 'x1', name: 'read', arguments: '{"path":"a"}', noIndex: true },
        { id: 'x2', name: 'read', arguments: '{"path":"b"}', noIndex: true },
      ],
    });
    expect(callsOf((await h.run()).events).map((c) => c.id)).toEqual(['x1', 'x2']);
    server.push({ kind: 'stream', toolCalls: [{ id: null, name: 'ls', arguments: '{}' }] });
    expect(callsOf((await h.run()).events)).toEqual([
      { id: 'call_0', name: 'ls', arguments: '{}' },
    ]);
  });

  it('reads the calls of a non-streamed JSON answer to a streaming request', async () => {
    const server = await h.serve();
    server.push({
      kind: 'stream',
      json: true,
      content: 'Reading.',
      toolCalls: [{ id: 'j1', name: 'read', arguments: '{"path":"a.md"}' }],
    });
    const got = await h.run();
    expect(got.text).toBe('Reading.');
    expect(callsOf(got.events)).toEqual([{ id: 'j1', name: 'read', arguments: '{"path":"a.md"}' }]);
    expect(got.done.reason).toBe('stop');
  });

  it('sends the tools, the assistant tool_calls and the tool messages with their ids', async () => {
    const server = await h.serve();
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'read',
          description: 'Reads a file [read]',
          parameters: { type: 'object' },
        },
      },
    ];
    await h.run(
      {},
      {
        tools,
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: 'Reading.',
            toolCalls: [{ id: 'call_1', name: 'read', arguments: '{"path":"a.md"}' }],
          },
          { role: 'tool', toolCallId: 'call_1', content: 'the file' },
        ],
      },
    );
    const body = (await server.waitForRequest(0)).body;
    expect(body.tools).toEqual(tools);
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read', arguments: '{"path":"a.md"}' },
          },
        ],
      },
      { role: 'tool', content: 'the file', tool_call_id: 'call_1' },
    ]);
  });

  it('sends no tools field when none are given', async () => {
    const server = await h.serve();
    await h.run();
    expect((await server.waitForRequest(0)).body).not.toHaveProperty('tools');
  });
});
