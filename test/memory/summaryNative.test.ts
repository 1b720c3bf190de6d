/**
 * Compression and the token count see a reply's native calls: they live in its parts, not in
 * its content.
 */
import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { buildSummaryRequest } from '../../src/memory/summaryPrompt.js';
import { TokenCounter } from '../../src/memory/tokenCounter.js';
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

  it("counts a reply's native calls in its size", () => {
    const made = makeMessage('assistant', '');
    const parsed = parseReply('');
    const args = JSON.stringify({ path: 'a/long/path/to/a/file/with/a/long/name.md' });
    parsed.items.push(...nativeCallItems([{ id: 'c1', name: 'read', arguments: args }], 0));
    const counter = new TokenCounter();
    const bare = counter.countMessage(made);
    const withCall = counter.countMessage({
      ...made,
      id: 'x',
      parts: partsOf(made.id, '', parsed),
    });
    expect(withCall - bare).toBeGreaterThanOrEqual(counter.count(args));
  });
});
