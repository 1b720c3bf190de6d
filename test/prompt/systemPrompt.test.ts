/**
 * The system prompt's protocol section: short (every request carries it, and a small local
 * model's window is 8k), and showing one canonical call form that the parser runs as written.
 */
import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/protocol/parser.js';
import { buildSystemPrompt } from '../../src/prompt/systemPrompt.js';

/** The protocol section's budget in o200k tokens (124 when it was written, 2026-12). */
const PROTOCOL_SECTION_MAX_TOKENS = 150;

function protocolSection(): string {
  const prompt = buildSystemPrompt({ workspaceRoot: '/home/user/ws', toolList: 'ls()' });
  const start = prompt.indexOf('# How to call a tool');
  const end = prompt.indexOf('\n# ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return prompt.slice(start, end === -1 ? undefined : end);
}

describe('the protocol section of the system prompt', () => {
  it(`stays under ${PROTOCOL_SECTION_MAX_TOKENS} tokens`, () => {
    const tokens = encode(protocolSection()).length;
    console.log(`protocol section: ${tokens} tokens (o200k)`);
    expect(tokens).toBeLessThanOrEqual(PROTOCOL_SECTION_MAX_TOKENS);
  });

  it('shows one call, in the canonical form, which runs as written', () => {
    const section = protocolSection();
    const parsed = parseReply(section);
    expect(parsed.items).toHaveLength(1);
    const [call] = parsed.items;
    expect(call).toMatchObject({ type: 'call', name: 'read', args: ['notes/todo.md'] });
    expect(call).not.toHaveProperty('readAs');
    // No other format is shown, so none is suggested.
    expect(section).not.toMatch(/<tool_call>|TOOL_CALLS|python_tag|"arguments"|\w+=/);
  });
});
