/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API (SSE streaming
 * and plain JSON) and answers from a script, so tests exercise the real SDK, real sockets
 * and real aborts.
 *
 * ```ts
 * const server = await startScriptedServer();
 * server.push({ kind: 'stream', content: ['Hel', 'lo'] }, { kind: 'error', status: 429, retryAfter: '2' });
 * const provider = createOpenAICompatibleProvider({ baseURL: server.url, model: 'm' });
 * // ... run it, then:
 * const req = await server.waitForRequest(0);
 * expect(req.body.model).toBe('m');
 * await server.close();
 * ```
 *
 * `requests` holds chat-completion POSTs only (model listings and unknown paths are not
 * recorded), so `waitForRequest(n)` means "the n-th chat call" (0-based).
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildChunks, completionJson, errorJson } from './scriptedWire.js';

/** Stream a reply as SSE (or as one JSON completion when the request has `stream: false`). */
export interface StreamStep {
  kind: 'stream';
  /** An array is sent one element per chunk; a string is split into ~4-character chunks. */
  content?: string | string[];
  /** Sent before the content, in the field named by `reasoningField`. */
  reasoning?: string | string[];
  /** Default `reasoning_content` (DeepSeek); `reasoning` is what OpenRouter/Ollama use. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Delay between chunks. */
  chunkDelayMs?: number;
  /** Reported usage; default derived from sizes; `false` sends no usage chunk. */
  usage?:
    | {
        prompt_tokens: number;
        completion_tokens: number;
        /** Passed through as sent: `prompt_tokens_details`, `prompt_cache_hit_tokens`… */
        [field: string]: unknown;
      }
    | false;
  /**
   * Native function calls, sent after the content as `delta.tool_calls`: the id and name
   * first, then the arguments one piece per chunk (a string is sent whole).
   */
  toolCalls?: ScriptedToolCall[];
  /** Send the calls' pieces in turn (call 0's first piece, call 1's first piece…). */
  interleaveCalls?: boolean;
  /** Answer with one JSON completion even though the request asked to stream. */
  json?: boolean;
  /** Default `stop` (`tool_calls` when there are calls). */
  finishReason?: string;
  /** Stop sending after N chunks but keep the socket open (N ≥ all chunks: stall before [DONE]). */
  stallAfterChunks?: number;
  /** Destroy the socket after N chunks. */
  dropAfterChunks?: number;
  /** Send a `data: {not json` line after N chunks, then carry on. */
  malformedAfterChunks?: number;
}

/** One native call a scripted answer makes. */
export interface ScriptedToolCall {
  /** Default `call_<n>`; `null` sends none. */
  id?: string | null;
  name: string;
  arguments: string | string[];
  /** Leave out `index` from the pieces (servers that number calls only by id). */
  noIndex?: boolean;
}

/** Answer with an HTTP error. */
export interface ErrorStep {
  kind: 'error';
  status: number;
  /** JSON body (a string is sent as plain text); default an OpenAI-style `{ error: {...} }`. */
  body?: unknown;
  /** `Retry-After` header value (seconds or an HTTP date). */
  retryAfter?: string;
  /** Any other headers, e.g. `{ 'retry-after-ms': '1500' }`. */
  headers?: Record<string, string>;
}

/** Accept the request and never answer, until the client closes. */
export interface HangStep {
  kind: 'hang';
}

/** One scripted answer to one POST /v1/chat/completions (or /chat/completions). */
export type Step = StreamStep | ErrorStep | HangStep;

export interface RecordedRequest {
  /** 0-based position among chat-completion requests. */
  index: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (the raw string when it was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** `performance.now()` when the request body had arrived. */
  receivedAt: number;
  /** `performance.now()` when the client closed the connection before the response finished. */
  closedAt?: number;
  /** The response was sent in full. */
  completed: boolean;
}

export interface ScriptedServer {
  /** Base URL including /v1, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Queues answers, used in order. */
  push(...steps: Step[]): void;
  /** The answer when the queue is empty (initially a short stream `ok [WAIT]`). */
  setDefault(step: Step | ((req: RecordedRequest) => Step)): void;
  /** What GET /v1/models answers (initially `['scripted-model']`). */
  setModels(ids: string[] | { status: number }): void;
  /** Resolves when chat request `n` (0-based) has arrived. Default timeout 5000 ms. */
  waitForRequest(n: number, timeoutMs?: number): Promise<RecordedRequest>;
  /**
   * Resolves when the client closed request `n`'s connection before the response finished;
   * rejects if the response completed (or the server dropped it) instead.
   */
  waitForClose(n: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Stops listening and destroys open sockets (hanging and stalled answers included). */
  close(): Promise<void>;
}

const CHAT_PATHS = new Set(['/v1/chat/completions', '/chat/completions']);
const MODEL_PATHS = new Set(['/v1/models', '/models']);
const DEFAULT_STEP: Step = { kind: 'stream', content: 'ok [WAIT]' };
const DEFAULT_WAIT_MS = 5000;

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Starts a server on an ephemeral port. `requireKey`: 401 unless `Authorization: Bearer <key>`. */
export async function startScriptedServer(
  opts: { requireKey?: string } = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const queue: Step[] = [];
  const events = new EventEmitter().setMaxListeners(0);
  let fallback: Step | ((req: RecordedRequest) => Step) = DEFAULT_STEP;
  let models: string[] | { status: number } = ['scripted-model'];
  let closing: Promise<void> | undefined;
  // Ends every in-flight script (delays, stalls) when the server shuts down.
  const shutdown = new AbortController();
  // Requests whose socket the script destroyed on purpose: not a client close.
  const droppedByServer = new Set<number>();

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, errorJson(500, `scripted server bug: ${String(err)}`));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const raw = await readBody(req);
    const authorized =
      !opts.requireKey || req.headers.authorization === `Bearer ${opts.requireKey}`;
    const unauthorized = (): void =>
      sendJson(res, 401, errorJson(401, 'Incorrect API key provided', 'invalid_api_key'));

    if (req.method === 'POST' && CHAT_PATHS.has(path)) {
      const rec = record(req, res, path, raw);
      if (!authorized) return unauthorized();
      if (typeof rec.body !== 'object' || rec.body === null) {
        return sendJson(res, 400, errorJson(400, 'the request body is not valid JSON'));
      }
      const step = queue.shift() ?? (typeof fallback === 'function' ? fallback(rec) : fallback);
      return answer(step, rec, res);
    }
    if (req.method === 'GET' && MODEL_PATHS.has(path)) {
      if (!authorized) return unauthorized();
      if (!Array.isArray(models)) {
        return sendJson(res, models.status, errorJson(models.status, 'scripted models error'));
      }
      const data = models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    sendJson(res, 404, errorJson(404, `no route for ${req.method ?? '?'} ${path}`));
  }

  function record(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    raw: string,
  ): RecordedRequest {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const rec: RecordedRequest = {
      index: requests.length,
      path,
      headers: { ...req.headers },
      body,
      receivedAt: performance.now(),
      completed: false,
    };
    requests.push(rec);
    res.on('close', () => {
      if (res.writableFinished) rec.completed = true;
      else if (!droppedByServer.has(rec.index) && !shutdown.signal.aborted) {
        rec.closedAt = performance.now();
      }
      events.emit('close', rec);
    });
    events.emit('request', rec);
    return rec;
  }

  async function answer(step: Step, rec: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (step.kind === 'hang') return; // the socket stays open until the client or close() ends it
    if (step.kind === 'error') {
      const headers: Record<string, string> = { ...step.headers };
      if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
      if (typeof step.body === 'string') {
        res.writeHead(step.status, { 'content-type': 'text/plain', ...headers });
        res.end(step.body);
        return;
      }
      return sendJson(res, step.status, step.body ?? errorJson(step.status), headers);
    }
    if (rec.body.stream !== true || step.json === true) return answerJson(step, rec, res);
    return answerStream(step, rec, res);
  }

  /** Non-streaming: one JSON completion; stall/drop/malformed map to hang/destroy/bad JSON. */
  function answerJson(step: StreamStep, rec: RecordedRequest, res: http.ServerResponse): void {
    if (step.stallAfterChunks !== undefined) return;
    if (step.dropAfterChunks !== undefined) {
      droppedByServer.add(rec.index);
      res.socket?.destroy();
      return;
    }
    if (step.malformedAfterChunks !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{not json');
      return;
    }
    sendJson(res, 200, completionJson(step, rec.body));
  }

  async function answerStream(
    step: StreamStep,
    rec: RecordedRequest,
    res: http.ServerResponse,
  ): Promise<void> {
    const alive = new AbortController();
    const stop = (): void => alive.abort();
    res.on('close', stop);
    shutdown.signal.addEventListener('abort', stop, { once: true });
    try {
      const chunks = buildChunks(step, rec);
      const at = (n: number | undefined): number | undefined =>
        n === undefined ? undefined : Math.max(0, Math.min(n, chunks.length));
      const stallAt = at(step.stallAfterChunks);
      const dropAt = at(step.dropAfterChunks);
      const malformedAt = at(step.malformedAfterChunks);
      // Each write waits until the bytes are handed to the kernel, so "after N chunks" means
      // the client can really receive those N chunks before the stall or the drop.
      const write = (text: string): Promise<void> =>
        new Promise((resolve) => {
          if (alive.signal.aborted) return resolve();
          res.write(text, () => resolve());
        });

      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.flushHeaders();
      for (let i = 0; ; i += 1) {
        if (alive.signal.aborted) return;
        if (i === stallAt) return; // keep the socket open; the client or close() ends it
        if (i === dropAt) {
          droppedByServer.add(rec.index);
          res.socket?.destroy();
          return;
        }
        if (i === malformedAt) await write('data: {not json\n\n');
        const chunk = chunks[i];
        if (chunk === undefined) break;
        if (i > 0 && step.chunkDelayMs) {
          const ok = await pause(step.chunkDelayMs, alive.signal);
          if (!ok) return;
        }
        await write(`data: ${chunk}\n\n`);
      }
      await write('data: [DONE]\n\n');
      if (!alive.signal.aborted) res.end();
    } finally {
      shutdown.signal.removeEventListener('abort', stop);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function waitFor(
    what: 'request' | 'close',
    n: number,
    timeoutMs: number,
    settled: (rec: RecordedRequest) => 'resolve' | string | undefined,
  ): Promise<RecordedRequest> {
    const label = what === 'request' ? `waitForRequest(${n})` : `waitForClose(${n})`;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const rec = requests[n];
        if (!rec) return false;
        const verdict = settled(rec);
        if (verdict === undefined) return false;
        if (verdict === 'resolve') resolve(rec);
        else reject(new Error(`${label}: ${verdict}`));
        return true;
      };
      if (check()) return;
      const onEvent = (): void => {
        if (check()) cleanup();
      };
      const onShutdown = (): void => {
        cleanup();
        reject(new Error(`${label}: the server was closed first`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `${label}: nothing after ${timeoutMs} ms (${requests.length} chat request(s) arrived so far)`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        events.off('request', onEvent);
        events.off('close', onEvent);
        shutdown.signal.removeEventListener('abort', onShutdown);
      };
      events.on('request', onEvent);
      events.on('close', onEvent);
      shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    });
  }

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...steps) => void queue.push(...steps),
    setDefault: (step) => void (fallback = step),
    setModels: (ids) => void (models = ids),
    waitForRequest: (n, timeoutMs = DEFAULT_WAIT_MS) =>
      waitFor('request', n, timeoutMs, () => 'resolve'),
    waitForClose: (n, timeoutMs = DEFAULT_WAIT_MS) =>
      waitFor('close', n, timeoutMs, (rec) => {
        if (rec.closedAt !== undefined) return 'resolve';
        if (rec.completed) return 'the response completed; the client never closed it early';
        if (droppedByServer.has(rec.index)) return 'the server dropped this connection itself';
        return undefined;
      }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        shutdown.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
