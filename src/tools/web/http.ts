import { ToolFailure } from './errors.js';
import { assertWebScheme } from './url.js';

/** The subset of `fetch` the web tools use; injectable so tests can observe requests. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

interface RequestOptions {
  fetch: FetchLike;
  /** Combined turn + deadline signal, see {@link withDeadline}. */
  signal: AbortSignal;
  maxRedirects: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

interface FollowedResponse {
  response: Response;
  /** The address that finally answered (after redirects). */
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A plain browser-like agent: some sites refuse requests that name no agent at all. */
const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Cogito/0.1 Safari/537.36';

/**
 * Runs `body` with a signal that fires on the turn's abort or after `timeoutMs`, and maps
 * the resulting abort into `aborted` or `timeout` failures with a readable message.
 */
export async function withDeadline<T>(
  turn: AbortSignal,
  timeoutMs: number,
  what: string,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timeout')), timeoutMs);
  const signal = AbortSignal.any([turn, deadline.signal]);
  try {
    return await body(signal);
  } catch (error) {
    if (turn.aborted)
      throw new ToolFailure('aborted', `Stopped ${what}: the turn was interrupted.`);
    if (deadline.signal.aborted) {
      throw new ToolFailure(
        'timeout',
        `Timed out after ${formatSeconds(timeoutMs)} ${what}: the server is too slow or not answering.`,
      );
    }
    if (error instanceof ToolFailure) throw error;
    throw new ToolFailure('network', `Network error ${what}: ${describeNetworkError(error)}.`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends the request and follows redirects by hand, so every hop is checked for its scheme
 * (an http page must not bounce us to `file:`) and counted against `maxRedirects`.
 */
export async function requestFollowing(
  start: URL,
  options: RequestOptions,
): Promise<FollowedResponse> {
  let url = start;
  let method = options.method ?? 'GET';
  let body = options.body;
  for (let hop = 0; ; hop += 1) {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...options.headers };
    if (body === undefined) delete headers['content-type'];
    const response = await options.fetch(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: options.signal,
    });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return { response, url };
    await discard(response);
    if (hop >= options.maxRedirects) {
      throw new ToolFailure(
        'network',
        `Too many redirects: ${start.href} still redirects after ${options.maxRedirects} hops (a redirect loop?).`,
      );
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ToolFailure(
        'network',
        `${url.href} redirected to an invalid address.`,
        `Location: ${location.slice(0, 300)}`,
      );
    }
    assertWebScheme(next, url.href);
    // 303 always turns into GET; 301/302 do for POST, as browsers do.
    if (
      response.status === 303 ||
      (method === 'POST' && response.status !== 307 && response.status !== 308)
    ) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}

interface CappedBody {
  bytes: Uint8Array;
  /** True when the body was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads at most `maxBytes` of the body and then cancels the stream, which closes the
 * connection: a 10 MB page costs 2 MB of transfer, not 10.
 */
export async function readCapped(response: Response, maxBytes: number): Promise<CappedBody> {
  if (response.body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    if (value.byteLength > room) {
      if (room > 0) chunks.push(value.subarray(0, room));
      total += Math.max(room, 0);
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/** Drops a body we will not read, so the connection is not left hanging. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** Human size: `2 MB`, `512 KB`, `900 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Undici hides the useful part (ECONNREFUSED, ENOTFOUND …) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}
