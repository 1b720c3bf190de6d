/**
 * A loopback file server for model downloads: serves byte buffers by file name with HTTP
 * Range support, can drop the connection half-way through a response (once), and can
 * publish a SHA-256 the way Hugging Face does (`X-Linked-Etag` on a redirect).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedFile {
  body: Buffer;
  /** The SHA-256 to publish; `true` for the real one, a string to lie. Default: none. */
  sha256?: true | string;
  /** Send this many bytes of the first full-body response, then destroy the socket. */
  dropAfterBytes?: number;
  /** Send this many bytes, then keep the connection open without sending more. */
  stallAfterBytes?: number;
}

export interface ModelServer {
  /** Base URL, for COGITO_MODELS_URL. */
  url: string;
  /** Each request's path and Range header, in order. */
  requests: { path: string; range: string | undefined }[];
  close(): Promise<void>;
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

function rangeStart(req: IncomingMessage): number {
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  return m ? Number(m[1]) : 0;
}

/** Starts the server on 127.0.0.1; files are looked up by the request path's last part. */
export async function startModelServer(files: Record<string, ServedFile>): Promise<ModelServer> {
  const requests: ModelServer['requests'] = [];
  const dropped = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname, range: req.headers.range });
    const name = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const served = files[name];
    if (!served) {
      res.writeHead(404).end('not found');
      return;
    }
    // Like Hugging Face: /resolve/ redirects to the bytes and names the checksum there.
    if (!url.pathname.startsWith('/cdn/')) {
      const headers: Record<string, string> = { location: `/cdn/${name}` };
      if (served.sha256) {
        headers['x-linked-etag'] =
          `"${served.sha256 === true ? sha256(served.body) : served.sha256}"`;
        headers['x-linked-size'] = String(served.body.length);
      }
      res.writeHead(302, headers).end();
      return;
    }
    const start = rangeStart(req);
    const total = served.body.length;
    const chunk = served.body.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, {
      'content-length': String(chunk.length),
      'accept-ranges': 'bytes',
      ...(start > 0 ? { 'content-range': `bytes ${start}-${total - 1}/${total}` } : {}),
    });
    if (served.stallAfterBytes !== undefined) {
      res.write(chunk.subarray(0, served.stallAfterBytes));
      return;
    }
    if (served.dropAfterBytes !== undefined && !dropped.has(name)) {
      dropped.add(name);
      res.write(chunk.subarray(0, served.dropAfterBytes), () => res.socket?.destroy());
      return;
    }
    res.end(chunk);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/models`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
