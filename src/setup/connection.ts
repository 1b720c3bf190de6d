/**
 * The wizard's connection test. Two requests, each with a job:
 *
 * 1. `GET /models`: cheap and free. It settles "unreachable" and "bad key" at once, and when
 *    it answers it gives the list the model name is checked against.
 * 2. One chat request for the chosen model through the real provider, cancelled the moment
 *    the server accepts it (response headers with 2xx). That proves the address, the key
 *    and the model together, as the agent will use them, without waiting for (or paying
 *    for) a reply. `max_tokens` is deliberately not sent: some models (OpenAI's o-series)
 *    reject it, which would fail a working setup.
 *
 * A model missing from the list is only called unknown when the chat request fails too,
 * since some services serve more models than they list.
 */
import { createOpenAICompatibleProvider } from '../providers/openaiCompatible.js';
import type { ProviderError } from '../providers/types.js';
import { DEFAULT_HTTP_TIMEOUT_MS, baseUrlProblem, listModels, modelInList } from './models.js';
import { fail, type ConnectionVerdict, type HttpOptions } from './verdict.js';

interface ConnectionInput extends HttpOptions {
  baseURL: string;
  /** Empty or absent: no Authorization header. */
  apiKey?: string;
  model: string;
}

/** Tests an OpenAI-compatible endpoint with a key and a model. Never throws. */
export async function testConnection(input: ConnectionInput): Promise<ConnectionVerdict> {
  const problem = baseUrlProblem(input.baseURL);
  if (problem) return fail('unreachable', problem);
  if (!input.model.trim()) return fail('unknown_model', 'no model name was given');
  const list = await listModels(input.baseURL, input.apiKey, input);
  if (!list.ok && (list.kind === 'bad_key' || list.kind === 'unreachable'))
    return fail(list.kind, list.message);
  const listed = list.ok ? list.models : undefined;

  const probe = await chatProbe(input);
  if (probe === 'accepted') return { ok: true };
  const notListed = listed !== undefined && !modelInList(input.model, listed);
  return classify(probe, notListed ? unlistedMessage(input, listed) : undefined);
}

/** Maps the provider's error kinds onto what the wizard can act on. */
function classify(error: ProviderError, notListed: string | undefined): ConnectionVerdict {
  switch (error.kind) {
    case 'auth':
      return fail('bad_key', error.message);
    case 'not_found':
      return fail('unknown_model', notListed ?? error.message);
    case 'network':
    case 'timeout':
      return fail('unreachable', error.message);
    default:
      // DeepSeek and others answer an unknown model with HTTP 400 ("Model Not Exist").
      if (notListed) return fail('unknown_model', `${notListed} (${error.message})`);
      if (error.kind === 'bad_request' && /model/i.test(error.message))
        return fail('unknown_model', error.message);
      return fail('other', error.message);
  }
}

function unlistedMessage(input: ConnectionInput, listed: readonly string[]): string {
  const shown = listed.slice(0, 8).join(', ');
  const more = listed.length > 8 ? ` and ${listed.length - 8} more` : '';
  return listed.length === 0
    ? `model "${input.model}" is not served at ${input.baseURL}, which lists no models`
    : `model "${input.model}" is not among the models ${input.baseURL} lists: ${shown}${more}`;
}

/** One chat request, aborted as soon as the server accepts it. */
async function chatProbe(input: ConnectionInput): Promise<'accepted' | ProviderError> {
  const controller = new AbortController();
  let accepted = false;
  const base = input.fetch ?? globalThis.fetch;
  const probeFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await base(url, init);
    if (res.ok) {
      accepted = true;
      // The verdict is in; closing the connection stops the reply before it costs anything.
      controller.abort();
    }
    return res;
  };
  const timeoutMs = input.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const provider = createOpenAICompatibleProvider({
    baseURL: input.baseURL,
    ...(input.apiKey ? { apiKey: input.apiKey } : {}),
    model: input.model,
    requestTimeoutMs: timeoutMs,
    streamIdleTimeoutMs: timeoutMs,
    fetch: probeFetch as typeof fetch,
  });
  let error: ProviderError | undefined;
  for await (const ev of provider.stream({
    messages: [{ role: 'user', content: 'Reply with OK.' }],
    signal: controller.signal,
  })) {
    if (ev.type === 'done') error = ev.error;
    else controller.abort();
  }
  if (accepted || error === undefined) return 'accepted';
  return error;
}
