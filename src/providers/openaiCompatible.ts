/**
 * The provider for any OpenAI-compatible chat-completions endpoint (DeepSeek, OpenAI, Qwen,
 * Moonshot, Ollama, LM Studio, vLLM, llama.cpp server), built on the official `openai` SDK.
 *
 * Contract (see `Provider`): the stream never throws. It yields reasoning and text deltas,
 * at most one `usage`, and ends with exactly one `done` whose reason says how it ended;
 * failures carry a `ProviderError` with a kind and a sentence the user can act on.
 */
import OpenAI from 'openai';
import type { ChatMessage } from '../core/messages.js';
import {
  badResponseError,
  droppedError,
  redact,
  stalledError,
  toProviderError,
  type ErrorContext,
} from './errors.js';
import { createIdleWatchdog } from './idleWatchdog.js';
import { jsonAsStream } from './jsonAsStream.js';
import { tapFetch, type FetchTap } from './tapFetch.js';
import { ToolCallAssembler } from './toolCallAssembly.js';
import { createThinkSplitter, type Segment } from './thinkSplitter.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Provider,
  type ProviderError,
  type ProviderEvent,
  type StreamRequest,
  type Usage,
} from './types.js';

export interface OpenAICompatibleOptions {
  /** API root, e.g. `https://api.deepseek.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`; omit for local servers that need none. */
  apiKey?: string;
  model: string;
  /** No bytes for this long mid-reply: abort and report `timeout`. Default 60000. */
  streamIdleTimeoutMs?: number;
  /** Connect + response-headers timeout. Default 60000. */
  requestTimeoutMs?: number;
  /**
   * Send an assistant message's reasoning back as `reasoning_content`. Default false:
   * DeepSeek rejects requests that carry it in history.
   */
  sendReasoningInHistory?: boolean;
  /** Extra request fields for server-specific knobs (e.g. `top_k`, `enable_thinking`). */
  extraBody?: Record<string, unknown>;
  temperature?: number;
  /** Injectable for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** The delta fields we read; reasoning fields are not in the SDK's types. */
interface ChunkDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  /** Native function calls, in pieces (read whole from a non-streamed answer's message). */
  tool_calls?: unknown;
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  /** OpenAI, Qwen, Moonshot and most others. */
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** DeepSeek. */
  prompt_cache_hit_tokens?: number;
}

/** Creates the provider; nothing is sent until `stream` is iterated. */
export function createOpenAICompatibleProvider(opts: OpenAICompatibleOptions): Provider {
  return {
    id: 'openai-compatible',
    model: opts.model,
    stream: (request) => streamChat(opts, request),
  };
}

/**
 * Maps our history to the wire format, applying the reasoning-in-history quirk: native calls
 * go back as the assistant's `tool_calls`, their results as `tool` messages with their id.
 */
function toWireMessages(
  messages: ChatMessage[],
  sendReasoningInHistory: boolean,
): Record<string, unknown>[] {
  return messages.map((m) => {
    const wire: Record<string, unknown> = { role: m.role, content: m.content };
    if (sendReasoningInHistory && m.role === 'assistant' && m.reasoning) {
      wire['reasoning_content'] = m.reasoning;
    }
    if (m.role === 'assistant' && m.toolCalls !== undefined && m.toolCalls.length > 0) {
      wire['tool_calls'] = m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    if (m.role === 'tool' && m.toolCallId !== undefined) wire['tool_call_id'] = m.toolCallId;
    return wire;
  });
}

function buildBody(opts: OpenAICompatibleOptions, request: StreamRequest): Record<string, unknown> {
  return {
    stream_options: { include_usage: true },
    ...(opts.temperature === undefined ? {} : { temperature: opts.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    // extraBody may override the optional knobs above (some servers reject stream_options),
    // but never the fields that make this a streaming chat request.
    ...opts.extraBody,
    model: opts.model,
    messages: toWireMessages(request.messages, opts.sendReasoningInHistory ?? false),
    ...(request.tools !== undefined && request.tools.length > 0 ? { tools: request.tools } : {}),
    stream: true,
  };
}

/** A base URL we can send to, or the error that says how to fix it. */
function checkSettings(opts: OpenAICompatibleOptions): ProviderError | undefined {
  let url: URL | undefined;
  try {
    url = new URL(opts.baseURL);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return {
      kind: 'bad_request',
      message: redact(
        `the base URL "${opts.baseURL}" is not an http(s) URL: set it like https://api.deepseek.com/v1`,
        opts.apiKey,
      ),
      unsent: true,
    };
  }
  if (!opts.model.trim()) {
    return {
      kind: 'bad_request',
      message: 'no model is set: choose one with --setup',
      unsent: true,
    };
  }
  return undefined;
}

function toUsage(raw: RawUsage): Usage {
  const promptTokens = raw.prompt_tokens ?? 0;
  const completionTokens = raw.completion_tokens ?? 0;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: raw.total_tokens ?? promptTokens + completionTokens,
    ...(typeof cached === 'number' && cached >= 0 ? { cachedPromptTokens: cached } : {}),
  };
}

function toEvents(segments: Segment[]): ProviderEvent[] {
  return segments.map((s) =>
    s.channel === 'reasoning'
      ? { type: 'reasoning_delta', text: s.text }
      : { type: 'text_delta', text: s.text },
  );
}

/** What one request has seen so far: enough to say how it ended. */
interface StreamState {
  usage?: Usage;
  finishReason?: string;
  chunks: number;
  /** The reply's native calls, assembled from their pieces. */
  calls: ToolCallAssembler;
  /** Set when the request or the stream threw (an abort does not always throw). */
  failure?: { error: unknown };
}

/** The SDK client for one request; `fetch` is the tapped one that feeds the watchdog. */
function createClient(opts: OpenAICompatibleOptions, fetch: typeof globalThis.fetch): OpenAI {
  return new OpenAI({
    baseURL: opts.baseURL,
    // The SDK insists on a key; without one we send a placeholder and strip the header
    // below, and never let it fall back to OPENAI_* environment variables.
    apiKey: opts.apiKey || 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    maxRetries: 0, // the scheduler owns retries and backoff
    timeout: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    logLevel: 'off', // the SDK would print malformed chunks to the console under the TUI
    fetch,
    ...(opts.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
}

/** The events one streamed chunk carries; its usage and finish reason go into `state`. */
function readChunk(
  value: unknown,
  state: StreamState,
  splitter: ReturnType<typeof createThinkSplitter>,
): ProviderEvent[] {
  state.chunks += 1;
  const chunk = value as {
    choices?: { delta?: ChunkDelta; message?: ChunkDelta; finish_reason?: string | null }[];
    usage?: RawUsage | null;
  };
  if (chunk.usage) state.usage = toUsage(chunk.usage);
  const choice = chunk.choices?.[0];
  if (!choice) return [];
  const events: ProviderEvent[] = [];
  // A server that sends a whole message in a chunk (vLLM's last chunk, some proxies) is read
  // like a delta.
  const delta = choice.delta ?? choice.message ?? {};
  state.calls.push(delta.tool_calls);
  const reasoning = delta.reasoning_content || delta.reasoning;
  if (typeof reasoning === 'string' && reasoning) {
    events.push({ type: 'reasoning_delta', text: reasoning });
  }
  if (typeof delta.content === 'string' && delta.content) {
    events.push(...toEvents(splitter.push(delta.content)));
  }
  if (choice.finish_reason) state.finishReason = choice.finish_reason;
  return events;
}

/** What stopped a request, besides the stream itself. */
interface EndCauses {
  /** The caller's signal: an interrupt. */
  signal: AbortSignal;
  /** The stall watchdog fired. */
  stalled: boolean;
  ctx: ErrorContext;
  tap: FetchTap;
  idleMs: number;
  requestTimeoutMs: number;
}

/** The one `done` event: why the stream ended, most specific cause first. */
function finalEvent(state: StreamState, end: EndCauses): ProviderEvent {
  const { ctx } = end;
  if (end.signal.aborted) return { type: 'done', reason: 'aborted' };
  if (end.stalled) return { type: 'done', reason: 'error', error: stalledError(ctx, end.idleMs) };
  if (state.failure) {
    const error = toProviderError(state.failure.error, {
      ...ctx,
      errorBody: end.tap.errorBody,
      requestTimeoutMs: end.requestTimeoutMs,
      started: end.tap.started,
    });
    return { type: 'done', reason: 'error', error };
  }
  if (state.finishReason === 'length') return { type: 'done', reason: 'length' };
  if (state.finishReason) return { type: 'done', reason: 'stop' };
  // A clean end with no finish_reason: either the server closed the socket early without
  // chunked framing, or it never spoke the protocol at all.
  if (state.chunks === 0) {
    return {
      type: 'done',
      reason: 'error',
      error: badResponseError(ctx, 'no chat-completion chunks'),
    };
  }
  return { type: 'done', reason: 'error', error: droppedError(ctx) };
}

async function* streamChat(
  opts: OpenAICompatibleOptions,
  request: StreamRequest,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const bad = checkSettings(opts);
  if (bad) {
    yield { type: 'done', reason: 'error', error: bad };
    return;
  }
  if (request.signal.aborted) {
    yield { type: 'done', reason: 'aborted' };
    return;
  }

  const idleMs = opts.streamIdleTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // One controller for this request: the caller's abort and the stall watchdog both end it,
  // and aborting it makes the SDK (undici) close the HTTP connection at once.
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort();
  request.signal.addEventListener('abort', onCallerAbort, { once: true });
  const watchdog = createIdleWatchdog(idleMs, () => controller.abort());
  const tap: FetchTap = { started: false };
  const splitter = createThinkSplitter();
  const state: StreamState = { chunks: 0, calls: new ToolCallAssembler() };
  let iterator: AsyncIterator<unknown> | undefined;

  try {
    const base = jsonAsStream(opts.fetch ?? globalThis.fetch);
    const client = createClient(opts, tapFetch(base, watchdog, tap));
    const body = buildBody(opts, request) as unknown as OpenAI.ChatCompletionCreateParamsStreaming;
    const stream = await client.chat.completions.create(body, { signal: controller.signal });
    iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      watchdog.arm();
      const next = await iterator.next();
      watchdog.disarm();
      // After an abort the SDK ends the iteration normally: finalEvent tells why.
      if (next.done) break;
      yield* readChunk(next.value, state, splitter);
    }
  } catch (err) {
    state.failure = { error: err };
  } finally {
    watchdog.stop();
    request.signal.removeEventListener('abort', onCallerAbort);
    // Covers the consumer breaking out early too: no connection outlives the stream.
    controller.abort();
    iterator?.return?.().catch(() => undefined);
  }

  yield* toEvents(splitter.flush());
  // Calls are whole only once their stream ended; a stream cut short runs none of them.
  if (state.failure === undefined && !request.signal.aborted && !watchdog.fired) {
    for (const call of state.calls.done()) yield { type: 'tool_call', call };
  }
  if (state.usage) yield { type: 'usage', usage: state.usage };
  yield finalEvent(state, {
    signal: request.signal,
    stalled: watchdog.fired,
    ctx: { baseURL: opts.baseURL, model: opts.model, apiKey: opts.apiKey },
    tap,
    idleMs,
    requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
}
