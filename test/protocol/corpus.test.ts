/**
 * The shared corpus of reply styles (test/fixtures/protocol-corpus.ts): each reply, parsed
 * and placed against the real file and system tools, reads exactly as the corpus says.
 */
import { describe, expect, it } from 'vitest';
import { formatCall } from '../../src/protocol/format.js';
import { parseReply } from '../../src/protocol/parser.js';
import { readAsNote, resolveCall } from '../../src/protocol/resolve.js';
import { createFileTools } from '../../src/tools/files/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { createSystemTools } from '../../src/tools/system/index.js';
import { PROTOCOL_CORPUS, type Reading } from '../fixtures/protocol-corpus.js';

const registry = new ToolRegistry([...createFileTools(), ...createSystemTools()]);

/** How a reply reads, as the tool runner will see it: runnable calls and errors. */
function reading(reply: string): { readings: Reading[]; notes: (string | undefined)[] } {
  const readings: Reading[] = [];
  const notes: (string | undefined)[] = [];
  for (const parsed of parseReply(reply).items) {
    const item = resolveCall(parsed, registry.get(parsed.name ?? ''));
    notes.push(readAsNote(item));
    if (item.type === 'malformed') {
      readings.push({ error: item.error });
      continue;
    }
    const invalid = registry.validate(item.name, item.args);
    readings.push(
      invalid ? { error: invalid.message } : { call: formatCall(item.name, item.args) },
    );
  }
  return { readings, notes };
}

describe('the protocol corpus', () => {
  it('has at least 40 styles, each named once', () => {
    expect(PROTOCOL_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(PROTOCOL_CORPUS.map((e) => e.style)).size).toBe(PROTOCOL_CORPUS.length);
  });

  it.each(PROTOCOL_CORPUS.map((e) => [e.style, e] as const))('%s', (_style, entry) => {
    const { readings } = reading(entry.reply);
    expect(readings.map((r) => ('call' in r ? 'call' : 'error'))).toEqual(
      entry.expect.map((r) => ('call' in r ? 'call' : 'error')),
    );
    entry.expect.forEach((want, k) => {
      const got = readings[k];
      if ('call' in want) expect(got).toEqual(want);
      else if (got !== undefined && 'error' in got) {
        expect(got.error).toContain(want.error);
        // Every corrective error shows a form that works.
        expect(got.error).toMatch(/Expected: \[TOOL\]|Call it as|Known tools/);
      }
    });
  });

  it('says how a non-canonical call was read, in canonical form', () => {
    const styles = [
      'keyword argument',
      'Qwen <tool_call>',
      'bare word',
      'missing [/TOOL] at the end',
    ];
    for (const style of styles) {
      const entry = PROTOCOL_CORPUS.find((e) => e.style === style)!;
      expect(reading(entry.reply).notes[0]).toContain(`read as [TOOL] read("notes.md") [/TOOL]`);
    }
    const canonical = PROTOCOL_CORPUS.find((e) => e.style === 'canonical')!;
    expect(reading(canonical.reply).notes[0]).toBeUndefined();
  });

  it('a text style is shown whole: nothing in it was taken for a call', () => {
    for (const entry of PROTOCOL_CORPUS.filter((e) => e.expect.length === 0)) {
      expect(parseReply(entry.reply).text).toBe(entry.reply.trim());
    }
  });

  it('a style with calls leaves none of them in the shown text', () => {
    for (const entry of PROTOCOL_CORPUS.filter((e) => e.expect.length > 0)) {
      const shown = parseReply(entry.reply).text;
      expect(shown).not.toMatch(/\[TOOL\]|<tool_call>|"arguments"|"parameters"|tool▁call/i);
    }
  });
});
