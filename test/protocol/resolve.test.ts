/**
 * Placing named and bare-word arguments on a tool's parameters (src/protocol/resolve.ts),
 * against tool shapes written here: file-tool style, and an MCP tool that takes one JSON object.
 */
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/protocol/parser.js';
import { readAsNote, resolveCall, type ToolShape } from '../../src/protocol/resolve.js';
import type { CallItem } from '../../src/protocol/types.js';

const READ: ToolShape = {
  params: [
    { name: 'path', type: 'string', description: '' },
    { name: 'offset', type: 'number', optional: true, description: '' },
    { name: 'limit', type: 'number', optional: true, description: '' },
  ],
};
const MCP: ToolShape = { params: [], checkArgs: () => undefined };

function resolved(reply: string, tool: ToolShape | undefined): CallItem {
  const [item] = parseReply(reply).items;
  return resolveCall(item!, tool);
}

describe('resolveCall', () => {
  it('places names by the parameter order, an omitted optional one as null', () => {
    const item = resolved('[TOOL] read(limit=5, path="a.md") [/TOOL]', READ);
    expect(item).toMatchObject({ type: 'call', args: ['a.md', null, 5] });
    expect(item).not.toHaveProperty('named');
    expect(readAsNote(item)).toBe(
      'note: written with keyword arguments; read as [TOOL] read("a.md", null, 5) [/TOOL], the form to use.',
    );
  });

  it('matches a name whatever its case', () => {
    expect(resolved('[TOOL] read(Path="a.md") [/TOOL]', READ)).toMatchObject({ args: ['a.md'] });
  });

  it('refuses an unknown name, listing the parameters and a form that works', () => {
    const item = resolved('[TOOL] read(file="a.md") [/TOOL]', READ);
    expect(item.type).toBe('malformed');
    if (item.type !== 'malformed') return;
    expect(item.error).toContain(
      'read has no parameter "file". Its parameters are path, offset, limit.',
    );
    expect(item.error).toContain('Expected: [TOOL] read("path") [/TOOL]');
  });

  it('refuses a value given by position and by name', () => {
    const item = resolved('[TOOL] read("a.md", path="b.md") [/TOOL]', READ);
    expect(item).toMatchObject({ type: 'malformed' });
    if (item.type === 'malformed') expect(item.error).toContain('path is given twice');
  });

  it('accepts a bare word only where the tool takes a string', () => {
    expect(resolved('[TOOL] read(./notes.md, 2) [/TOOL]', READ)).toMatchObject({
      type: 'call',
      args: ['./notes.md', 2],
      readAs: ['a bare word'],
    });
    const bad = resolved('[TOOL] read("a.md", limit=ten) [/TOOL]', READ);
    expect(bad).toMatchObject({ type: 'malformed' });
    if (bad.type === 'malformed') {
      expect(bad.error).toContain(
        'argument 3 (limit) of read is a number, but it is the bare word ten',
      );
      expect(bad.error).toContain('Expected: [TOOL] read("a.md", null, 5) [/TOOL]');
    }
  });

  it('gives an MCP tool its named arguments as one JSON object string', () => {
    const item = resolved(
      '<tool_call>{"name": "db__query", "arguments": {"sql": "select 1", "rows": 5}}</tool_call>',
      MCP,
    );
    expect(item).toMatchObject({ type: 'call', args: ['{"sql":"select 1","rows":5}'] });
  });

  it('leaves an unknown tool to the registry, its values in order', () => {
    const item = resolved('[TOOL] open_file(path="a.md") [/TOOL]', undefined);
    expect(item).toMatchObject({ type: 'call', name: 'open_file', args: ['a.md'] });
  });

  it('reads a JSON list of arguments as positions', () => {
    const item = resolved(
      '<tool_call>{"name": "read", "arguments": ["a.md", 3]}</tool_call>',
      READ,
    );
    expect(item).toMatchObject({ type: 'call', args: ['a.md', 3] });
  });
});
