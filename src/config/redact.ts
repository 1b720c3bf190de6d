import type { Config } from './schema.js';

/** How a secret appears anywhere outside the config file. No part of it is ever shown. */
export const SECRET_SET = '(set)';
export const SECRET_NOT_SET = '(not set)';

const mask = (v: string | undefined): string => (v ? SECRET_SET : SECRET_NOT_SET);

/**
 * A copy of the config that is safe to show, log or put in a trace: the API key and the
 * search keys become `(set)` or `(not set)`. Not even a suffix is kept, since a suffix
 * still narrows the key down and screenshots travel.
 */
export function redactConfig<T extends Config>(config: T): T {
  return {
    ...config,
    apiKey: mask(config.apiKey),
    search: {
      ...config.search,
      tavilyKey: mask(config.search.tavilyKey),
      braveKey: mask(config.search.braveKey),
    },
  };
}
