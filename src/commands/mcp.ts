/** `/mcp`: each configured MCP server with its state, tool count or failure reason. */
import { t, type Lang } from '../i18n/messages.js';
import type { McpServerStatus } from '../mcp/status.js';
import type { SlashCommand } from './table.js';

/** One line per server, e.g. `  files   connected (stdio), 11 tools · restarted 1×`. */
export function formatMcpStatus(rows: readonly McpServerStatus[], lang: Lang): string {
  if (rows.length === 0) return t(lang, 'cmd.mcpNone');
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map((row) => {
    const restarts = row.restarts > 0 ? t(lang, 'cmd.mcpRestarts', { count: row.restarts }) : '';
    return `  ${row.name.padEnd(width)}  ${stateText(row, lang)}${restarts}`;
  });
  return [t(lang, 'cmd.mcpTitle'), ...lines].join('\n');
}

function stateText(row: McpServerStatus, lang: Lang): string {
  switch (row.state) {
    case 'connected':
      return t(lang, 'cmd.mcpConnected', { transport: row.transport, count: row.toolCount });
    case 'restarting':
      return t(lang, 'cmd.mcpRestarting', {
        attempt: row.attempt,
        seconds: (row.retryInMs / 1000).toFixed(1),
        reason: row.reason,
      });
    case 'failed':
      return t(lang, 'cmd.mcpFailed', { reason: row.reason });
    case 'starting':
      return t(lang, 'cmd.mcpStarting');
    case 'disabled':
      return t(lang, 'cmd.mcpDisabled');
    case 'stopped':
      return t(lang, 'cmd.mcpStopped');
  }
}

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  usage: '/mcp',
  description: 'command.mcp',
  run: ({ ctx }) => {
    ctx.say(formatMcpStatus(ctx.mcp?.status() ?? [], ctx.lang));
    return 'listen';
  },
};
