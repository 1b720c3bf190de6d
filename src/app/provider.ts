import type { LoadedConfig } from '../config/load.js';
import { createOpenAICompatibleProvider } from '../providers/openaiCompatible.js';
import type { Provider, ProviderEvent } from '../providers/types.js';

/** A provider that cannot run: every request ends with the same clear error. */
export function unavailableProvider(model: string, message: string): Provider {
  return {
    id: 'unavailable',
    model,
    async *stream(): AsyncIterable<ProviderEvent> {
      yield { type: 'done', reason: 'error', error: { kind: 'unavailable', message } };
    },
  };
}

/** The provider the config asks for. */
export function createProvider(config: LoadedConfig, model: string = config.model): Provider {
  if (config.provider === 'local') {
    return unavailableProvider(
      model,
      'the local provider is not available in this build yet; set "provider": "openai-compatible" in config.json',
    );
  }
  return createOpenAICompatibleProvider({
    baseURL: config.baseURL,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    model,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    sendReasoningInHistory: config.quirks.sendReasoningInHistory,
  });
}
