/**
 * Waiting on conditions, never on time: each helper resolves as soon as its condition
 * holds and fails with a clear message when the deadline passes.
 */
import type { AgentStore } from '../../src/store/agentStore.js';
import type { AgentStoreState } from '../../src/store/agentStore.js';

/** Resolves when the store's state satisfies `predicate` (checked on every change). */
export function waitForStore(
  store: AgentStore,
  predicate: (s: AgentStoreState) => boolean,
  what = 'the store condition',
  timeoutMs = 5000,
): Promise<AgentStoreState> {
  return new Promise((resolve, reject) => {
    if (predicate(store.getState())) return resolve(store.getState());
    const timer = setTimeout(() => {
      unsubscribe();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; state: ${store.getState().machine}`,
        ),
      );
    }, timeoutMs);
    const unsubscribe = store.subscribe((s) => {
      if (predicate(s)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(s);
      }
    });
  });
}

/** How long to wait, and how often to look. */
export interface WaitOptions {
  timeoutMs?: number;
  /** Pause between checks; 0 checks again as soon as the event loop has run once. */
  intervalMs?: number;
  /** Added to the timeout error, to show what was seen instead (the last frame, say). */
  detail?: () => string;
}

/**
 * The one polling loop of the tests, for things with no change event (frames, files, child
 * processes): calls `check` until it returns a value other than `undefined` or `false`, and
 * fails naming `what` once the deadline has passed. A number is the timeout in ms.
 */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: number | WaitOptions = {},
): Promise<T> {
  const {
    timeoutMs = 5000,
    intervalMs = 5,
    detail,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const seen = detail === undefined ? '' : `\n${detail()}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((r) => (intervalMs > 0 ? setTimeout(r, intervalMs) : setImmediate(r)));
  }
}
