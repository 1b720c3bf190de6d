/**
 * The web tools' transport: every request is checked by the {@link EgressGuard} and then
 * sent over node:http(s) to exactly the address the guard approved (the socket's DNS
 * lookup is replaced by that answer), so nothing is sent before the check and a resolver
 * that answers differently the second time cannot redirect the connection. Redirects are
 * never followed here: `requestFollowing` sends each hop as its own request, so each hop is
 * checked again.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { EgressGuard, ResolvedAddress } from './egress.js';
import type { FetchLike } from './http.js';

/** Statuses whose response may not carry a body (the Response constructor insists). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all === true) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
}

function headerRecord(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** The decoded body stream: the transport asked for compression, so it undoes it. */
function decodedBody(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return res.pipe(zlib.createInflate());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  return res;
}

function toResponse(res: http.IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!;
    if (/^(content-encoding|content-length)$/i.test(name) && res.headers['content-encoding']) {
      continue; // the body below is decoded, so these no longer describe it
    }
    headers.append(name, res.rawHeaders[i + 1]!);
  }
  const status = res.statusCode ?? 502;
  const empty = NULL_BODY.has(status) || method === 'HEAD';
  if (empty) res.resume();
  const source = decodedBody(res);
  // A failed decompression ends the body stream with the error; the reader reports it.
  source.on('error', () => undefined);
  const body = empty ? null : (Readable.toWeb(source) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

/** Sends one request to `target`, with the URL's host kept for Host, SNI and certificates. */
function send(url: URL, init: RequestInit | undefined, target: ResolvedAddress): Promise<Response> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = lib.request(url, {
      method,
      headers: { 'accept-encoding': 'gzip, deflate, br', ...headerRecord(init) },
      lookup: pinnedLookup(target),
      ...(init?.signal ? { signal: init.signal } : {}),
    });
    req.on('response', (res) => {
      try {
        resolve(toResponse(res, method));
      } catch (error) {
        res.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
    const body = init?.body;
    if (typeof body === 'string') req.end(body);
    else req.end();
  });
}

/**
 * A fetch that asks `guard` first. With `inner` (tests that stub the network) the call goes
 * there after the check, without pinning; otherwise it goes to the checked address.
 */
export function createGuardedFetch(guard: EgressGuard, inner?: FetchLike): FetchLike {
  return async (input, init) => {
    const url = input instanceof URL ? input : new URL(input);
    const target = await guard.check(url);
    if (inner !== undefined) return inner(url, init);
    return send(url, init, target);
  };
}
