/**
 * Shared setup for the OpenAI-compatible provider suites: a scripted server per test (closed
 * after each) and a provider pointed at it.
 */
import { afterEach } from 'vitest';
import {
  createOpenAICompatibleProvider,
  type OpenAICompatibleOptions,
} from '../../src/providers/openaiCompatible.js';
import type { Provider, StreamRequest } from '../../src/providers/types.js';
import { collectEvents, type Collected } from '../helpers/collectEvents.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer.js';

export const MESSAGES: StreamRequest['messages'] = [
  { role: 'system', content: 'You are Cogito.' },
  { role: 'user', content: 'hello' },
];

export interface Harness {
  /** The current test's server; throws if `serve()` was not called. */
  readonly server: ScriptedServer;
  serve(opts?: { requireKey?: string }): Promise<ScriptedServer>;
  /** A provider for model `test-model` at the server (or at a dead port when none runs). */
  provider(extra?: Partial<OpenAICompatibleOptions>): Provider;
  /** Streams MESSAGES (or `request`) through a fresh provider and collects the events. */
  run(
    extra?: Partial<OpenAICompatibleOptions>,
    request?: Partial<StreamRequest>,
  ): Promise<Collected>;
}

/** Call once at the top of a test file. */
export function useOpenAIHarness(): Harness {
  let current: ScriptedServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const provider = (extra: Partial<OpenAICompatibleOptions> = {}): Provider =>
    createOpenAICompatibleProvider({
      baseURL: current?.url ?? 'http://127.0.0.1:1/v1',
      model: 'test-model',
      ...extra,
    });
  return {
    get server() {
      if (!current) throw new Error('call serve() first');
      return current;
    },
    async serve(opts = {}) {
      current = await startScriptedServer(opts);
      return current;
    },
    provider,
    run: (extra = {}, request = {}) =>
      collectEvents(
        provider(extra).stream({
          messages: MESSAGES,
          signal: new AbortController().signal,
          ...request,
        }),
      ),
  };
}
