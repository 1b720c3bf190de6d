/**
 * Print mode with nothing configured: without a key, the default service (DeepSeek) would
 * refuse every request, and the run would spend its retries finding that out. Instead it
 * stops at once and names the three ways to configure a model.
 */
import type { LoadedConfig } from '../config/load.js';
import { defaultConfig } from '../config/schema.js';
import { invokedAs } from '../core/invokedAs.js';

/**
 * Whether no model is configured: the hosted default service without an API key (no key in
 * config.json, COGITO_API_KEY or OPENAI_API_KEY, and no other address or local model). A
 * server of one's own (COGITO_BASE_URL, --base-url, a local model file) may need no key.
 */
export function noModelConfigured(config: LoadedConfig): boolean {
  return (
    config.provider === 'openai-compatible' &&
    config.apiKey === undefined &&
    config.baseURL === defaultConfig().baseURL
  );
}

/** The message print mode stops with (exit code 2), naming the command as it was run. */
export function noModelMessage(cmd: string = invokedAs()): string {
  const pad = (s: string): string => s.padEnd(26);
  return [
    'cogito: no model is configured, so there is nothing to answer the prompt. Configure one of:',
    `  ${pad(`${cmd} --setup`)} the setup wizard: a hosted service, a local server or a model file`,
    `  ${pad('environment variables')} COGITO_API_KEY (or OPENAI_API_KEY) for the default service;`,
    `  ${pad('')} COGITO_BASE_URL and COGITO_MODEL for another OpenAI-compatible one`,
    `  ${pad(`${cmd} --download-model`)} download a local model that fits this machine and use it`,
  ].join('\n');
}
