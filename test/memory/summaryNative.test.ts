/** Compression sees a reply's native calls: they live in its parts, not in its content. */
import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { buildSummaryRequest } from '../../src/memory/summaryPrompt.js';
import { nativeCallItems } from '../../src/protocol/functionCalls.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf } from '../../src/protocol/replyParts.js';

describe('the summary request and native calls', () => {
  it("writes a reply's native calls into the transcript", () => {
    const made = makeMessage('assistant', '');
    const parsed = parseReply('');
    parsed.items.push(
      ...nativeCallItems([{ id: 'c1', name: 'read', arguments: '{"path":"plan.md"}' }], 0),
    );
    const reply = { ...made, parts: partsOf(made.id, '', parsed) };
    const [, user] = buildSummaryRequest([makeMessage('user', 'look'), reply], 'MARK');
    expect(user!.content).toContain('read({"path":"plan.md"})');
  });
});
