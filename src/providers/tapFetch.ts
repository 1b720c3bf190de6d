/**
 * Wraps `fetch` for one streaming request so the provider can see below the SDK: every body
 * chunk touches the stall watchdog (SSE keep-alive comments count as life even though the
 * SDK drops them), and a non-2xx body is kept so error messages can quote servers whose
 * error shape the SDK does not read (vLLM's top-level `message`, FastAPI's `detail`).
 */
import type { IdleWatchdog } from './idleWatchdog.js';

/** What the tap saw; filled in as the response arrives. */
export interface FetchTap {
  /** Response headers arrived: the reply has started. */
  started: boolean;
  /** Text of a non-2xx response body. */
  errorBody?: string;
}

/** Returns a fetch that reports into `tap` and touches `watchdog` on every body chunk. */
export function tapFetch(base: typeof fetch, watchdog: IdleWatchdog, tap: FetchTap): typeof fetch {
  const tapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await base(input, init);
    tap.started = true;
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      tap.errorBody = text;
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    if (!response.body) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          watchdog.touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return tapped as typeof fetch;
}
