/**
 * The tools as JSON schemas come from the registry's own list (the one the prompt's tool
 * lines are made from), MCP tools with their server's input schema; the native prompt drops
 * the `[TOOL]` protocol and the tool lines, and the text prompt keeps them.
 */
import { describe, expect, it } from 'vitest';
import { toolCallsOf } from '../../src/config/schema.js';
import { buildSystemPrompt } from '../../src/prompt/systemPrompt.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { functionTools, paramNames } from '../../src/tools/functionSchemas.js';
import { ok, type Tool } from '../../src/tools/types.js';

const read: Tool = {
  name: 'read',
  description: 'Reads a file.',
  kind: 'read',
  params: [
    { name: 'path', type: 'string', description: 'the file' },
    { name: 'offset', type: 'number', optional: true, description: 'first line' },
  ],
  run: () => Promise.resolve(ok('x')),
};
const inputSchema = {
  type: 'object',
  properties: { query: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['query'],
};
const mcp: Tool = {
  name: 'mcp__notes__search',
  description: 'Searches notes.',
  kind: 'network',
  params: [],
  signature: 'mcp__notes__search(query: string, tags?: array)',
  inputSchema,
  checkArgs: () => undefined,
  run: () => Promise.resolve(ok('x')),
};

describe('tools as JSON schemas', () => {
  it('one schema per tool of the list, in order, MCP tools with their own input schema', () => {
    const registry = new ToolRegistry([read], [{ list: () => [mcp] }]);
    const tools = functionTools(registry.list());
    expect(tools.map((t) => t.function.name)).toEqual(['read', 'mcp__notes__search']);
    expect(tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'read',
        description: 'Reads a file. [read]',
        parameters: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'the file' },
            offset: { type: 'number', description: 'first line' },
          },
          required: ['path'],
          additionalProperties: false,
        },
      },
    });
    expect(tools[1]!.function.parameters).toEqual(inputSchema);
    // The same tools give the same bytes: the request prefix stays cacheable.
    expect(JSON.stringify(functionTools(registry.list()))).toBe(JSON.stringify(tools));
    expect(paramNames(mcp)).toEqual(['query', 'tags']);
    expect(paramNames(read)).toEqual(['path', 'offset']);
  });

  it('the native prompt has no [TOOL] protocol and no tool lines; the text prompt keeps both', () => {
    const base = { workspaceRoot: '/w', toolList: 'read(path: string) — Reads a file. [read]' };
    const text = buildSystemPrompt(base);
    const native = buildSystemPrompt({ ...base, toolCalls: 'native' });
    expect(text).toContain('[TOOL] read("notes/todo.md") [/TOOL]');
    expect(text).toContain(base.toolList);
    expect(native).not.toContain('[TOOL]');
    expect(native).not.toContain(base.toolList);
    expect(native).toContain('function calling');
  });

  it('the local provider always gets the text protocol: it takes no tool schemas', () => {
    expect(toolCallsOf({ provider: 'local', toolCalls: 'native' })).toBe('text');
    expect(toolCallsOf({ provider: 'openai-compatible', toolCalls: 'native' })).toBe('native');
    expect(toolCallsOf({ provider: 'openai-compatible', toolCalls: 'text' })).toBe('text');
  });
});
