import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolContext, ToolResult } from '../../../src/tools/types.js';
import { waitUntil } from '../../helpers/waitFor.js';

/** A tool context for tests; these tools never touch the workspace. */
export function testContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workspace: {} as never, signal };
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1, port 0. `close` also drops open connections. */
export async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a request body as text. */
export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The JSON a child process writes to `file`, once it is all there: the file exists a moment
 * before its content does, so a check for the file alone can read it half-written.
 */
export function jsonWrittenTo(file: string, what: string): Promise<unknown> {
  return waitUntil(async () => {
    try {
      return { value: JSON.parse(await readFile(file, 'utf8')) as unknown };
    } catch {
      return undefined;
    }
  }, what).then((found) => found.value);
}

/** A fresh temp folder; call the returned cleanup in afterEach. */
export async function tempDir(
  prefix = 'cogito-tools-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The text of a successful result, failing the test otherwise. */
export function okText(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return String(result.data);
}

/** The error of a failed result, failing the test otherwise. */
export function errorOf(result: ToolResult): { kind: string; message: string } {
  if (result.ok) throw new Error(`expected an error, got: ${String(result.data).slice(0, 200)}`);
  return result.error;
}

export const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures',
);
