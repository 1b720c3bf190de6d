/** A native call is drawn like a text call: its own line, a warning when it was malformed. */
import { describe, expect, test } from 'vitest';
import { agentRows } from '../../components/panes/conversation.js';
import { nativeCallItems } from '../../src/protocol/functionCalls.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf } from '../../src/protocol/replyParts.js';

describe('native calls in the conversation', () => {
  test('the text, then each call on its line; a malformed one is a warning', () => {
    const text = 'Reading it.';
    const parsed = parseReply(text);
    parsed.items.push(
      ...nativeCallItems(
        [
          { id: 'a', name: 'read', arguments: '{"path":"notes.md"}' },
          { id: 'b', name: 'read', arguments: '{"path":' },
        ],
        text.length,
      ),
    );
    const rows = agentRows(partsOf('r1', text, parsed), 60, { lang: 'en' });
    expect(rows.map((r) => [r.text.trim(), r.tone])).toEqual([
      ['◆ Reading it.', 'agent'],
      ['⚙ read({"path":"notes.md"})', 'call'],
      ['⚠ read({"path":)', 'warn'],
    ]);
  });
});
