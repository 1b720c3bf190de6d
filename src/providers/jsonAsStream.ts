/**
 * Some servers answer a streaming request with one JSON completion (Ollama did when tools
 * were sent; proxies that do not stream). The SDK would read that as an empty event stream;
 * this fetch turns it into the one SSE chunk it stands for, so text and `tool_calls` of a
 * non-streamed answer are read like streamed ones (`message` read as the chunk's `delta`).
 */

interface Completion {
  choices?: { index?: number; message?: unknown; finish_reason?: unknown }[];
  [field: string]: unknown;
}

/** A fetch that rewrites a 2xx `application/json` chat completion as an SSE stream. */
export function jsonAsStream(base: typeof fetch): typeof fetch {
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await base(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('application/json')) return response;
    const text = await response.text();
    let sse: string;
    try {
      const json = JSON.parse(text) as Completion;
      if (!Array.isArray(json.choices)) throw new Error('not a completion');
      const chunk = {
        ...json,
        object: 'chat.completion.chunk',
        choices: json.choices.map((c, i) => ({
          index: c.index ?? i,
          delta: c.message ?? {},
          finish_reason: c.finish_reason ?? 'stop',
        })),
      };
      sse = `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
    } catch {
      // Not a completion: handed on as it came, for the SDK to report.
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    headers.delete('content-length');
    return new Response(sse, { status: response.status, headers });
  };
  return wrapped as typeof fetch;
}
