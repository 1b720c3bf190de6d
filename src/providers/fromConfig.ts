import type { LoadedConfig } from '../config/load.js';
import { sharedLocalProvider } from './local/localProvider.js';
import { createOpenAICompatibleProvider } from './openaiCompatible.js';
import type { Provider } from './types.js';

/** The provider the config asks for. */
export function createProvider(config: LoadedConfig, model: string = config.model): Provider {
  if (config.provider === 'local') {
    // The schema requires modelPath for "local"; an empty one still gets a clear error from
    // the provider. node-llama-cpp itself is imported only when the first turn runs. The
    // context holds contextWindow tokens when only that is set, so both sizes agree.
    const contextSize = config.contextSize ?? config.contextWindow;
    return sharedLocalProvider({
      modelPath: config.modelPath ?? '',
      ...(contextSize === undefined ? {} : { contextSize }),
      ...(config.threads === undefined ? {} : { threads: config.threads }),
      ...(config.gpu === undefined ? {} : { gpu: config.gpu }),
    });
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
