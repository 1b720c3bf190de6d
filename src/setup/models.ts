/**
 * Asks an OpenAI-compatible server which models it serves (`GET {baseURL}/models`). The
 * wizard offers the answer as a list; any failure is classified so it can say why the
 * list is missing and let the user type the name instead.
 */
import { formatSeconds, redact, serverDetail, systemErrorCode } from '../providers/errors.js';
import type { HttpOptions, VerdictKind } from './verdict.js';

/** The server's models, or why there is no list (the wizard then asks for a typed name). */
export type ModelList =
  | { ok: true; models: string[] }
  | { ok: false; kind: VerdictKind; message: string; status?: number };

/** Local servers answer in milliseconds; hosted APIs within a few seconds. */
export const DEFAULT_HTTP_TIMEOUT_MS = 15_000;

/** Checks that `baseURL` is an http(s) address; returns the problem otherwise. */
export function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseURL.trim());
  } catch {
    return `"${baseURL}" is not a web address: write it like https://api.deepseek.com/v1`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${baseURL}" must start with http:// or https://, e.g. http://127.0.0.1:11434/v1`;
  return undefined;
}

/** `{baseURL}/{path}` with exactly one slash between them. */
function endpoint(baseURL: string, path: string): string {
  return `${baseURL.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * GET a JSON document. Never throws: a network failure or timeout is `unreachable`, 401/403
 * is `bad_key`, any other non-2xx or a body that is not JSON is `other` (with the status).
 */
export async function getJson(
  url: string,
  apiKey: string | undefined,
  opts: HttpOptions = {},
): Promise<
  { ok: true; body: unknown } | { ok: false; kind: VerdictKind; message: string; status?: number }
> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const doFetch = opts.fetch ?? globalThis.fetch;
  const origin = url.replace(/\/[^/]*$/, '');
  let res: Response;
  try {
    res = await doFetch(url, {
      headers: {
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { ok: false, kind: 'unreachable', message: unreachableMessage(origin, err, timeoutMs) };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return { ok: false, kind: 'unreachable', message: unreachableMessage(origin, err, timeoutMs) };
  }
  if (!res.ok) {
    const detail = serverDetail(undefined, text);
    const why = detail ? `: ${detail}` : '';
    const status = res.status;
    if (status === 401 || status === 403) {
      const message = apiKey
        ? `the server rejected the API key (HTTP ${status}${why})`
        : `the server needs an API key (HTTP ${status}${why})`;
      return { ok: false, kind: 'bad_key', status, message: redact(message, apiKey) };
    }
    return {
      ok: false,
      kind: 'other',
      status,
      message: redact(`${url} answered HTTP ${status}${why}`, apiKey),
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      kind: 'other',
      status: res.status,
      message: `${url} did not answer with JSON: is this the API root (it usually ends in /v1)?`,
    };
  }
}

function unreachableMessage(where: string, err: unknown, timeoutMs: number): string {
  const name = (err as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no answer from ${where} within ${formatSeconds(timeoutMs)}: is the server running, and is the address right?`;
  const code = systemErrorCode(err);
  if (code === 'ECONNREFUSED')
    return `could not connect to ${where} (connection refused): is the server running, and is the address right?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `could not find the host of ${where} (${code}): check the address and your network`;
  return `could not reach ${where} (${code ?? (err instanceof Error ? err.message : String(err))}): check the address and your network`;
}

/** The ids in an OpenAI-style list (`{ data: [{ id }] }`), sorted, without duplicates. */
function modelIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const ids = data
    .map((m) => (m as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

/** Lists the models the server at `baseURL` serves. Never throws. */
export async function listModels(
  baseURL: string,
  apiKey?: string,
  opts: HttpOptions = {},
): Promise<ModelList> {
  const problem = baseUrlProblem(baseURL);
  if (problem) return { ok: false, kind: 'unreachable', message: problem };
  const got = await getJson(endpoint(baseURL, 'models'), apiKey || undefined, opts);
  if (!got.ok) return got;
  const models = modelIds(got.body);
  if (!models) {
    return {
      ok: false,
      kind: 'other',
      message: `${endpoint(baseURL, 'models')} did not answer with a model list: is this the API root (it usually ends in /v1)?`,
    };
  }
  return { ok: true, models };
}

/**
 * Whether `model` is among `models`. Ollama lists `llama3.1:latest` for what users call
 * `llama3.1`, so a missing tag counts as `:latest`; case is ignored.
 */
export function modelInList(model: string, models: readonly string[]): boolean {
  const norm = (m: string): string => {
    const s = m.trim().toLowerCase();
    return s.includes(':') ? s : `${s}:latest`;
  };
  const wanted = norm(model);
  return models.some((m) => norm(m) === wanted);
}
