import type { ChatMessage, FunctionTool, NativeToolCall } from '../core/messages.js';

/** Token counts as reported by the server (or estimated when it sends none). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /**
   * Prompt tokens not evaluated again because a cache already held them: a server's prompt
   * cache, or the local model's KV cache from the previous turn. Absent when unknown.
   */
  cachedPromptTokens?: number;
}

export { DEFAULT_REQUEST_TIMEOUT_MS } from '../config/defaults.js';

export type ProviderErrorKind =
  | 'auth' // 401/403: bad or missing key
  | 'not_found' // 404: unknown model or wrong base URL
  | 'rate_limit' // 429
  | 'server' // 5xx
  | 'bad_request' // other 4xx
  | 'network' // connection refused, DNS, reset, dropped mid-stream
  | 'timeout' // stream stalled past streamIdleTimeoutMs
  | 'bad_response' // malformed SSE / JSON
  | 'unavailable' // provider cannot run at all (e.g. native binary missing)
  | 'unknown';

export interface ProviderError {
  kind: ProviderErrorKind;
  /** A sentence a user can act on: what went wrong and how to fix it. */
  message: string;
  status?: number;
  /** From a Retry-After header, when the server sent one. */
  retryAfterMs?: number;
  /**
   * The request never reached the server (connection refused, host not found, a bad base
   * URL): it cost nothing, and a turn whose requests all ended so counts no cycle.
   */
  unsent?: true;
}

/**
 * An error a turn reports: the provider's, or one of the agent's own whose kind is not a
 * provider's (e.g. `history_write`, `internal`). Declared here, beside {@link ProviderError},
 * so the event, the turn and its phases share one type.
 */
export type TurnError = ProviderError | { kind: string; message: string };

/**
 * The one closed set of events a provider yields. A stream always ends with exactly one
 * `done`; providers never throw, failures and aborts arrive as `done` with a reason.
 */
export type ProviderEvent =
  | { type: 'reasoning_delta'; text: string }
  | { type: 'text_delta'; text: string }
  | { type: 'usage'; usage: Usage }
  /** A native function call, whole: its streamed pieces are assembled before it is yielded. */
  | { type: 'tool_call'; call: NativeToolCall }
  | { type: 'done'; reason: 'stop' | 'length' | 'aborted' | 'error'; error?: ProviderError };

export interface StreamRequest {
  messages: ChatMessage[];
  signal: AbortSignal;
  /** Upper bound for the reply, when set. */
  maxTokens?: number;
  /** Tools offered as JSON schemas (`toolCalls: "native"`); absent: none are sent. */
  tools?: readonly FunctionTool[];
}

export interface Provider {
  /** e.g. 'openai-compatible' or 'local'. */
  readonly id: string;
  readonly model: string;
  stream(request: StreamRequest): AsyncIterable<ProviderEvent>;
}
