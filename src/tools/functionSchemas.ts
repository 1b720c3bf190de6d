/**
 * The registry's tools as JSON schemas, for servers that take function calls natively
 * (`toolCalls: "native"`). Made from the same list the system prompt's tool lines are made
 * from (`ToolRegistry.list()`, MCP tools included), in the same order, so the two never
 * disagree and the same tools give the same bytes (the request prefix stays cacheable).
 */
import type { FunctionTool } from '../core/messages.js';
import type { Tool } from './types.js';

/** One tool as a function schema; its kind closes the description, as in the prompt. */
export function functionToolOf(tool: Tool): FunctionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: `${tool.description} [${tool.kind}]`,
      parameters: tool.inputSchema ?? paramsSchema(tool),
    },
  };
}

/** The tools of `list`, in order. */
export function functionTools(list: readonly Tool[]): FunctionTool[] {
  return list.map(functionToolOf);
}

function paramsSchema(tool: Tool): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of tool.params) properties[p.name] = { type: p.type, description: p.description };
  const required = tool.params.filter((p) => p.optional !== true).map((p) => p.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The parameter names a call of `tool` takes, for the fix shown when its arguments miss. */
export function paramNames(tool: Tool | undefined): string[] | undefined {
  if (tool === undefined) return undefined;
  const props = tool.inputSchema?.['properties'];
  if (typeof props === 'object' && props !== null) return Object.keys(props);
  return tool.params.map((p) => p.name);
}
