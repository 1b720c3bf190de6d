/**
 * Starting the fixture MCP server for a test: as a stdio child (the config to give Cogito)
 * or over Streamable HTTP on 127.0.0.1 in this process, one SDK server per session.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// The old transport is deprecated in the SDK; older servers still speak it.
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpServerSchema, type McpServerSettings } from '../../src/config/mcpSchema.js';
import { createFixtureServer } from '../fixtures/mcp/fixtureServer.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The config of a stdio fixture server, run through tsx from the project's node_modules. */
export function stdioFixtureConfig(extra: Record<string, unknown> = {}): McpServerSettings {
  const loader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  return mcpServerSchema.parse({
    command: process.execPath,
    args: ['--import', loader, path.join(ROOT, 'test/fixtures/mcp/stdioMain.ts')],
    timeoutMs: 15_000,
    ...extra,
  });
}

export interface HttpFixture {
  url: string;
  /** How many slow calls began, and how many were cancelled by the client. */
  readonly slowStarted: number;
  readonly cancelled: number;
  /** Every tools/call the server received, in order. */
  readonly calls: readonly { name: string; args: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** The fixture server over Streamable HTTP (stateful sessions) on 127.0.0.1. */
export async function startHttpFixture(): Promise<HttpFixture> {
  let cancelled = 0;
  let slowStarted = 0;
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        const mcp = createFixtureServer({
          onCall: (name, args) => void calls.push({ name, args }),
          onSlowStarted: () => void (slowStarted += 1),
          onCancelled: () => void (cancelled += 1),
          crash: () => void created.close(),
        });
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get slowStarted() {
      return slowStarted;
    },
    get cancelled() {
      return cancelled;
    },
    calls,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether a process still runs; a zombie counts as gone (the agent's own check). */
export { isAlive } from '../../src/core/processAlive.js';

/**
 * The fixture server on the older HTTP+SSE transport (before Streamable HTTP): `GET /sse`
 * opens the event stream, `POST /messages` carries requests; a POST to `/sse` gets 405, as
 * such servers answer a Streamable HTTP client.
 */
export async function startSseFixture(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        const mcp = createFixtureServer({
          onSlowStarted: () => undefined,
          onCancelled: () => undefined,
          crash: () => void transport.close(),
        });
        await mcp.connect(transport);
        return;
      }
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && url.pathname === '/messages' && transport) {
        await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(405).end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    async close() {
      await Promise.all([...transports.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The pid the fixture wrote to `file`, once the file holds one (it may be caught half
 * written). Never 0 or 1: signalling those would reach a whole process group or init.
 */
export function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}
