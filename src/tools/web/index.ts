import type { Tool } from '../types.js';
import { createCommandRunner } from '../system/exec.js';
import type { CommandRunner } from '../system/exec.js';
import { createBrowseTool } from './browse.js';
import type { BrowserCommand } from './browse.js';
import { resolveFetchConfig } from './config.js';
import type { WebToolsSettings } from './config.js';
import { createFetchPageTool } from './fetchPage.js';
import type { FetchLike } from './http.js';
import { createGuardedFetch } from './pinnedFetch.js';
import { createSearchTool } from './search.js';
import { EgressGuard } from './egress.js';
import type { Resolver } from './egress.js';

export type { SearchSettings, WebToolsSettings } from './config.js';

/** Effects the web tools use; each defaults to the real one. */
export interface WebToolsDeps {
  /**
   * Replaces the transport (tests). Calls still pass the egress guard first; without it the
   * request goes to the very address the guard checked.
   */
  fetch?: FetchLike;
  /** Replaces DNS for the egress guard (tests). */
  resolver?: Resolver;
  /** Runs the browser opener; defaults to execa. */
  runner?: CommandRunner;
  /** Picks the opener; defaults to `process.platform`. */
  platform?: NodeJS.Platform;
  /** Replaces the opener command (tests). */
  browserCommand?: (url: string) => BrowserCommand;
}

/**
 * Builds `search`, `fetchPage` and `browse`, all behind one egress guard built from
 * `config.fetch`. Nothing is registered as a side effect: the caller adds the returned tools
 * to its registry.
 */
export function createWebTools(config: WebToolsSettings = {}, deps: WebToolsDeps = {}): Tool[] {
  const guard = new EgressGuard(config.fetch, deps.resolver);
  const fetch = createGuardedFetch(guard, deps.fetch);
  const limits = resolveFetchConfig(config.fetch);
  return [
    createSearchTool(config.search ?? { provider: 'duckduckgo' }, {
      fetch,
      timeoutMs: limits.timeoutMs,
      maxRedirects: limits.maxRedirects,
    }),
    createFetchPageTool(limits, fetch),
    createBrowseTool({
      guard,
      runner: deps.runner ?? createCommandRunner(),
      platform: deps.platform ?? process.platform,
      ...(deps.browserCommand ? { command: deps.browserCommand } : {}),
    }),
  ];
}
