import type { McpTransportKind } from './transport.js';

/** Where one configured server stands, as `/mcp` shows it. */
export type McpServerState =
  | { state: 'disabled' }
  | { state: 'starting' }
  | { state: 'connected'; transport: McpTransportKind; toolCount: number }
  | { state: 'restarting'; reason: string; attempt: number; retryInMs: number }
  | { state: 'failed'; reason: string }
  | { state: 'stopped' };

/** One server's row in `/mcp`: its state plus how often it had to be restarted. */
export type McpServerStatus = McpServerState & { name: string; restarts: number };
