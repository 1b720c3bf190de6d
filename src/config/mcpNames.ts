/**
 * How MCP tools are named in Cogito's text protocol: `mcp__<server>__<tool>`, with every
 * character outside `[A-Za-z0-9_]` replaced by `_`, so the name is one protocol identifier.
 */

/** The prefix every MCP tool name starts with. */
const MCP_PREFIX = 'mcp__';

/** `my-server.v2` → `my_server_v2`. */
export function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The protocol name of a server's tool, e.g. `mcp__files__read_file`. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${sanitizeName(server)}__${sanitizeName(tool)}`;
}
