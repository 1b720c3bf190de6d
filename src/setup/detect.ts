/**
 * Finds model servers already running on this machine (Ollama, LM Studio, llama.cpp
 * server) so the wizard can offer them first. A port only counts when it answers with a
 * model list: 8080 in particular is a common port for unrelated web servers.
 */
import { getJson, listModels } from './models.js';
import { localServerPresets, type PresetId } from './presets.js';
import type { HttpOptions } from './verdict.js';

export interface DetectedServer {
  presetId: PresetId;
  baseURL: string;
  /** What it serves (may be empty: LM Studio lists nothing until a model is loaded). */
  models: string[];
}

export interface DetectOptions {
  /**
   * Which presets to probe on which port. Default: every local-server preset on its usual
   * port. When given, only these are probed (tests point one at their own server).
   */
  ports?: Partial<Record<PresetId, number>>;
  /** Default 127.0.0.1. */
  host?: string;
  fetch?: typeof fetch;
  /** Per probe; short, since a server on this machine answers at once. Default 800 ms. */
  timeoutMs?: number;
}

/** Per-probe timeout: a server on this machine answers in milliseconds or not at all. */
const DEFAULT_DETECT_TIMEOUT_MS = 800;

/** Probes the candidates in parallel; the servers that answered, in the presets' order. */
export async function detectLocalServers(opts: DetectOptions = {}): Promise<DetectedServer[]> {
  const host = opts.host ?? '127.0.0.1';
  const http: HttpOptions = {
    timeoutMs: opts.timeoutMs ?? DEFAULT_DETECT_TIMEOUT_MS,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  const candidates = opts.ports
    ? Object.entries(opts.ports).map(([id, port]) => ({ id: id as PresetId, port: port! }))
    : localServerPresets().map((p) => ({ id: p.id, port: p.port! }));
  const found = await Promise.all(
    candidates.map(async ({ id, port }): Promise<DetectedServer | undefined> => {
      const origin = `http://${host}:${port}`;
      const baseURL = `${origin}/v1`;
      const list = await listModels(baseURL, undefined, http);
      if (list.ok) return { presetId: id, baseURL, models: list.models };
      // Ollama before its OpenAI-compatible API: its own list of pulled models.
      if (id === 'ollama' && list.kind !== 'unreachable') {
        const tags = await getJson(`${origin}/api/tags`, undefined, http);
        const models = tags.ok ? ollamaTags(tags.body) : undefined;
        if (models) return { presetId: id, baseURL, models };
      }
      return undefined;
    }),
  );
  return found.filter((s): s is DetectedServer => s !== undefined);
}

function ollamaTags(body: unknown): string[] | undefined {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  return models
    .map((m) => (m as { name?: unknown } | null)?.name)
    .filter((n): n is string => typeof n === 'string')
    .sort((a, b) => a.localeCompare(b));
}
