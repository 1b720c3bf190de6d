/**
 * Opens a connected MCP client for one configured server: a child process over stdio, or
 * a remote server over Streamable HTTP with the older SSE transport as the fallback.
 * The only module that loads the SDK's runtime; it is imported when the first server
 * connects, so start-up never pays for the SDK.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerSettings } from '../config/mcpSchema.js';

export { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** How a connection reaches its server. */
export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** A connected client and what is known about its transport. */
export interface OpenedClient {
  client: Client;
  kind: McpTransportKind;
  /** The child's pid for stdio servers, to make sure it is gone at exit. */
  pid?: number;
}

export interface OpenOptions {
  /** The workspace: a stdio server's default folder and the base of a relative `cwd`. */
  workspaceRoot: string;
  /** Receives a stdio server's stderr (it must never reach the terminal the UI draws on). */
  onStderr(chunk: string): void;
  /** Set up before connecting, so no early notification is missed. */
  prepare(client: Client): void;
  /** Aborts the handshake (Cogito is shutting down); the client is then closed. */
  signal: AbortSignal;
  /** Told a stdio server's pid as soon as it runs, before the handshake can hang. */
  onSpawn?(pid: number): void;
}

const CLIENT_INFO = { name: 'cogito', version: '1.0.0' };

/** Connects (initialize handshake included) within the server's `timeoutMs`. */
export async function openClient(cfg: McpServerSettings, opts: OpenOptions): Promise<OpenedClient> {
  if (cfg.command !== undefined) return openStdio(cfg, cfg.command, opts);
  const url = new URL(cfg.url ?? '');
  if (cfg.type === 'sse') return openSse(cfg, url, opts);
  const client = newClient(opts);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: init(cfg) });
  try {
    await client.connect(transport, { timeout: cfg.timeoutMs, signal: opts.signal });
    return { client, kind: 'http' };
  } catch (err) {
    await client.close().catch(() => undefined);
    if (cfg.type === 'http' || cfg.type === 'streamable-http') throw err;
    // Servers from before Streamable HTTP answer the POST with an error: try SSE.
    try {
      return await openSse(cfg, url, opts);
    } catch {
      throw err; // the Streamable HTTP error says more about a server that is simply down
    }
  }
}

async function openStdio(
  cfg: McpServerSettings,
  command: string,
  opts: OpenOptions,
): Promise<OpenedClient> {
  const transport = new StdioClientTransport({
    command,
    args: cfg.args ?? [],
    ...(cfg.env ? { env: cfg.env } : {}),
    cwd: path.resolve(opts.workspaceRoot, cfg.cwd ?? '.'),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => opts.onStderr(chunk.toString('utf8')));
  const client = newClient(opts);
  // connect() spawns the child before its first await: the pid is known from here on, so a
  // server stuck in its handshake can still be ended at exit.
  const connecting = client.connect(transport, { timeout: cfg.timeoutMs, signal: opts.signal });
  if (transport.pid !== null) opts.onSpawn?.(transport.pid);
  try {
    await connecting;
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  const pid = transport.pid;
  return { client, kind: 'stdio', ...(pid === null ? {} : { pid }) };
}

async function openSse(cfg: McpServerSettings, url: URL, opts: OpenOptions): Promise<OpenedClient> {
  const client = newClient(opts);
  const headers = cfg.headers ?? {};
  const transport = new SSEClientTransport(url, {
    requestInit: init(cfg),
    eventSourceInit: {
      fetch: (u, i) => fetch(u, { ...i, headers: { ...i?.headers, ...headers } }),
    },
  });
  try {
    await client.connect(transport, { timeout: cfg.timeoutMs, signal: opts.signal });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  return { client, kind: 'sse' };
}

function newClient(opts: OpenOptions): Client {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  opts.prepare(client);
  return client;
}

function init(cfg: McpServerSettings): RequestInit {
  return cfg.headers === undefined ? {} : { headers: cfg.headers };
}
