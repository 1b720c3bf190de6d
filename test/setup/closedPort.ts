/** A port on 127.0.0.1 that nothing listens on: bound once to get a free number, then closed. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A tiny server with fixed answers per path (for shapes the scripted server does not speak). */
export async function fixedServer(
  routes: Record<string, { status: number; body: string }>,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(route?.status ?? 404, { 'content-type': 'application/json' });
    res.end(route?.body ?? '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
