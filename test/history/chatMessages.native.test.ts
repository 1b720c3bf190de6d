/**
 * A reply with native calls goes back in the form servers expect: the assistant message
 * carrying its `tool_calls`, then one `tool` message per call with the server's id. Text
 * calls of the same reply keep their user-role results; no cue follows the tool messages.
 */
import { describe, expect, test } from 'vitest';
import { buildChatMessages, NOT_RUN_RESULT } from '../../src/history/chatMessages.js';
import { makeMessage, type HistoryMessage } from '../../src/core/messages.js';
import { nativeCallItems } from '../../src/protocol/functionCalls.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf } from '../../src/protocol/replyParts.js';

function reply(
  text: string,
  calls: { id: string; name: string; arguments: string }[],
): HistoryMessage {
  const made = makeMessage('assistant', text);
  const parsed = parseReply(text);
  parsed.items.push(...nativeCallItems(calls, text.length));
  return { ...made, parts: partsOf(made.id, text, parsed) };
}

const result = (r: HistoryMessage, index: number, content: string): HistoryMessage =>
  makeMessage('tool', content, { callIndex: index, callId: `${r.id}#${index}` });

describe('native calls in the request', () => {
  test('assistant tool_calls, then each tool message by id; a text call result stays user-role after them', () => {
    const r = reply('Looking. [TOOL] ls(".") [/TOOL]', [
      { id: 'call_a', name: 'read', arguments: '{"path":"a.md"}' },
      { id: 'call_b', name: 'read', arguments: '{"path":"b.md"}' },
    ]);
    const history = [
      makeMessage('user', 'look'),
      r,
      result(r, 0, '[RESULT] ls: a.md b.md'),
      result(r, 1, '[RESULT] a'),
      result(r, 2, '[RESULT] b'),
    ];
    const out = buildChatMessages('SYS', history, { autonomousCue: '(Continue.)' });
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(out[2]!.toolCalls).toEqual([
      { id: 'call_a', name: 'read', arguments: '{"path":"a.md"}' },
      { id: 'call_b', name: 'read', arguments: '{"path":"b.md"}' },
    ]);
    expect(out[3]).toEqual({ role: 'tool', toolCallId: 'call_a', content: '[RESULT] a' });
    expect(out[4]).toEqual({ role: 'tool', toolCallId: 'call_b', content: '[RESULT] b' });
    expect(out[5]!.content).toBe('[RESULT] ls: a.md b.md');
  });

  test('ending on tool messages adds no cue, so the next request extends this one', () => {
    const r = reply('', [{ id: 'c1', name: 'ls', arguments: '{}' }]);
    const first = [makeMessage('user', 'look'), r, result(r, 0, '[RESULT] ls: x')];
    const a = buildChatMessages('SYS', first, { autonomousCue: '(Continue.)' });
    expect(a.at(-1)!.role).toBe('tool');
    const b = buildChatMessages('SYS', [...first, makeMessage('assistant', 'Done.')], {
      autonomousCue: '(Continue.)',
    });
    expect(b.slice(0, a.length)).toEqual(a);
  });

  test('a call whose result is missing is still answered', () => {
    const r = reply('', [{ id: 'c1', name: 'ls', arguments: '{}' }]);
    const out = buildChatMessages('SYS', [makeMessage('user', 'look'), r]);
    expect(out.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: NOT_RUN_RESULT });
  });
});
