/**
 * Sizes of the in-memory structures that could grow with turns, read from a running app: what
 * the soak records beside RSS, so growth can be pinned on a structure.
 */
import type { App } from '../../src/app/createApp.js';
import { internalsOf } from '../../test/helpers/agentInternals.js';

/** Size of a private Map/Set/array field, read without widening the class's API. */
function sizeOf(owner: unknown, field: string): number | undefined {
  const v = (owner as Record<string, unknown> | undefined)?.[field];
  if (v instanceof Map || v instanceof Set) return v.size;
  if (Array.isArray(v)) return v.length;
  return undefined;
}

export function soakProbes(app: App): Record<string, number | undefined> {
  const s = app.agent.store.getState();
  return {
    historyMessages: internalsOf(app.agent).history.messages().length,
    storeMessages: s.messages.length,
    toolLog: s.toolLog.length,
    traces: s.traces.length,
    ledger: s.ledger.length,
    notices: s.notices.length,
    tokenCache: sizeOf(internalsOf(app.agent).counter, 'cache'),
  };
}
