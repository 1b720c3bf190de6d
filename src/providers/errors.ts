/**
 * Turns whatever went wrong talking to an OpenAI-compatible server into a `ProviderError`
 * with a kind the scheduler can act on and a sentence the user can act on.
 *
 * Every message passes through `redact`, so an API key echoed back by a server (or pasted
 * into a base URL) never reaches the screen, the history or a trace.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ProviderError, ProviderErrorKind } from './types.js';
import { redactSecrets } from '../core/redact.js';

/** What the messages need to name: where we talked to, and what we asked for. */
export interface ErrorContext {
  baseURL: string;
  model: string;
  /** Only used to scrub it out of messages; never printed. */
  apiKey?: string;
  /** The raw body of a non-2xx answer, when it was captured. */
  errorBody?: string;
}

/** `12000` → `"12s"`, `200` → `"0.2s"`: short and readable in a status line. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 || Number.isInteger(s) ? `${Math.round(s)}s` : `${s.toFixed(1)}s`;
}

/**
 * Removes the key from a message through the one redactor (core/redact.ts): also when the
 * server echoed it split over lines, or only a long piece of it.
 */
export function redact(text: string, apiKey: string | undefined): string {
  return apiKey ? redactSecrets(text, [apiKey]) : text;
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms` (OpenAI, Azure) first, then
 * `Retry-After` as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(parseFloat(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(parseFloat(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The server's own explanation, from the shapes servers actually use, shortened. */
export function serverDetail(err: unknown, rawBody: string | undefined): string {
  // The raw body, when captured, is authoritative: the SDK's version of it loses shapes it
  // does not know and would quote an HTML error page verbatim.
  const found =
    rawBody !== undefined
      ? detailFromBody(rawBody)
      : err instanceof APIError
        ? detailFromSdkError(err)
        : undefined;
  const text = (found ?? '').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

function detailFromBody(raw: string): string | undefined {
  try {
    const body: unknown = JSON.parse(raw);
    if (!body || typeof body !== 'object') return undefined;
    const b = body as Record<string, unknown>;
    const error = b['error'];
    if (typeof error === 'string') return error; // Ollama
    if (error && typeof error === 'object') {
      const message = (error as Record<string, unknown>)['message'];
      if (typeof message === 'string') return message; // OpenAI, DeepSeek, most others
    }
    if (typeof b['message'] === 'string') return b['message']; // vLLM
    if (typeof b['detail'] === 'string') return b['detail']; // FastAPI-based servers
    if (b['detail'] !== undefined) return JSON.stringify(b['detail']);
    return undefined;
  } catch {
    // Plain text is useful ("404 page not found"); an HTML error page is not.
    return /^\s*</.test(raw) ? undefined : raw;
  }
}

function detailFromSdkError(err: APIError): string | undefined {
  const inner: unknown = err.error;
  if (typeof inner === 'string') return inner;
  if (inner && typeof inner === 'object') {
    const message = (inner as Record<string, unknown>)['message'];
    if (typeof message === 'string') return message;
  }
  const text = err.message.replace(/^\d{3}\s*/, '');
  return text === 'status code (no body)' ? undefined : text;
}

/** Walks an error's `cause` chain for a Node system error code such as `ECONNREFUSED`. */
export function systemErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function make(
  kind: ProviderErrorKind,
  message: string,
  ctx: ErrorContext,
  extra: Partial<ProviderError> = {},
): ProviderError {
  return { kind, message: redact(message, ctx.apiKey), ...extra };
}

/** An HTTP error status (from headers or from an error event inside the stream). */
function httpError(status: number, err: unknown, ctx: ErrorContext): ProviderError {
  const detail = serverDetail(err, ctx.errorBody);
  const why = detail ? `: ${detail}` : '';
  const headers = err instanceof APIError ? err.headers : undefined;
  if (status === 401 || status === 403) {
    const message = ctx.apiKey
      ? `the API key was rejected (HTTP ${status}${why}): check COGITO_API_KEY or run with --setup`
      : `the server requires an API key and none is set (HTTP ${status}${why}): set COGITO_API_KEY or run with --setup`;
    return make('auth', message, ctx, { status });
  }
  if (status === 404) {
    return make(
      'not_found',
      `model "${ctx.model}" was not found at ${ctx.baseURL} (HTTP 404${why}): check the model ` +
        'name, and that the base URL is the API root (it usually ends in /v1)',
      ctx,
      { status },
    );
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers);
    const wait =
      retryAfterMs === undefined
        ? 'wait a moment before trying again'
        : `the server asks to wait ${formatSeconds(retryAfterMs)}`;
    return make(
      'rate_limit',
      `rate limited by the server at ${ctx.baseURL} (HTTP 429${why}): ${wait}`,
      ctx,
      {
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      },
    );
  }
  if (status >= 500) {
    return make(
      'server',
      `the server at ${ctx.baseURL} failed (HTTP ${status}${why}): this is usually temporary, try again later`,
      ctx,
      { status },
    );
  }
  return make(
    'bad_request',
    `the server rejected the request (HTTP ${status}${why}): check the model name and settings`,
    ctx,
    { status },
  );
}

/** Codes that say the request never left for the server: nothing was sent, nothing spent. */
const UNSENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The connection failed before any answer arrived. */
function connectionError(err: unknown, ctx: ErrorContext): ProviderError {
  const code = systemErrorCode(err);
  const unsent = code !== undefined && UNSENT_CODES.has(code) ? { unsent: true as const } : {};
  if (code === 'ECONNREFUSED') {
    return make(
      'network',
      `could not connect to ${ctx.baseURL} (connection refused): is the server running, and is the base URL right?`,
      ctx,
      unsent,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return make(
      'network',
      `could not find the host of ${ctx.baseURL} (${code}): check the base URL and your network`,
      ctx,
      unsent,
    );
  }
  const why = code ?? (err instanceof Error ? err.message : String(err));
  return make(
    'network',
    `could not reach ${ctx.baseURL} (${why}): check the base URL and your network`,
    ctx,
    unsent,
  );
}

/** The connection dropped after the reply had started. */
export function droppedError(ctx: ErrorContext, err?: unknown): ProviderError {
  const code = systemErrorCode(err);
  return make(
    'network',
    `the connection to ${ctx.baseURL} dropped mid-reply${code ? ` (${code})` : ''}: try again`,
    ctx,
  );
}

/** No bytes for `idleMs` while the reply was streaming. */
export function stalledError(ctx: ErrorContext, idleMs: number): ProviderError {
  return make(
    'timeout',
    `the server at ${ctx.baseURL} sent nothing for ${formatSeconds(idleMs)} mid-reply, so the request was stopped: ` +
      'it may be overloaded; try again, or raise streamIdleTimeoutMs',
    ctx,
  );
}

/** The stream carried something that is not a chat-completions chunk. */
export function badResponseError(ctx: ErrorContext, what: string): ProviderError {
  return make(
    'bad_response',
    `the server at ${ctx.baseURL} sent ${what}: check that the base URL points to an ` +
      'OpenAI-compatible API (it usually ends in /v1)',
    ctx,
  );
}

/**
 * Classifies an error thrown by the SDK or by the stream. `started` tells whether the reply
 * had begun (response headers received): a network failure after that is a dropped stream.
 */
export function toProviderError(
  err: unknown,
  ctx: ErrorContext & { requestTimeoutMs: number; started: boolean },
): ProviderError {
  if (err instanceof APIConnectionTimeoutError) {
    return make(
      'timeout',
      `no answer from ${ctx.baseURL} within ${formatSeconds(ctx.requestTimeoutMs)}: the server ` +
        'may be down or overloaded; try again, or raise requestTimeoutMs',
      ctx,
    );
  }
  if (err instanceof APIConnectionError) return connectionError(err, ctx);
  if (err instanceof APIError) {
    if (typeof err.status === 'number') return httpError(err.status, err, ctx);
    // An `{"error": ...}` event inside an otherwise fine stream: the server gave up mid-reply.
    const detail = serverDetail(err, undefined);
    return make(
      'server',
      `the server at ${ctx.baseURL} reported an error mid-reply${detail ? `: ${detail}` : ''}; try again`,
      ctx,
    );
  }
  if (err instanceof SyntaxError)
    return badResponseError(ctx, 'a malformed stream chunk (not JSON)');
  if (ctx.started) return droppedError(ctx, err);
  const message = err instanceof Error ? err.message : String(err);
  return make('unknown', `unexpected error talking to ${ctx.baseURL}: ${message}`, ctx);
}
