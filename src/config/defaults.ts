/**
 * Defaults that both the settings (`schema.ts`) and the code that uses a setting need, declared
 * once here, at the bottom of the layers, so the lower folder never has to import the higher.
 */

/** The tool kinds, in the order `/approval` lists them. */
export const TOOL_KINDS = ['read', 'write', 'destructive', 'network', 'process'] as const;

/** The approval policies, in the order `/approval` offers them. */
export const APPROVAL_POLICIES = ['auto', 'ask', 'deny'] as const;

/** `requestTimeoutMs` and `streamIdleTimeoutMs` when the settings do not say. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** `fetch` limits when the settings do not say. */
export const FETCH_DEFAULTS = {
  timeoutMs: 15_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  maxLinks: 20,
} as const;

/** `search.maxResults` when the settings do not say. */
export const DEFAULT_MAX_RESULTS = 8;

/** `watch.maxEntries` when the config does not say: a large project, not a home folder. */
export const DEFAULT_MAX_ENTRIES = 20_000;

/** `run` limits when the settings do not say. */
export const RUN_DEFAULTS = {
  timeoutMs: 120_000,
  maxOutputChars: 16_000,
  maxBackground: 4,
  maxProcesses: 1024,
  backgroundTimeoutMs: 30 * 60_000,
} as const;
