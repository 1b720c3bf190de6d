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

/** Polls `check` (for things with no change event, like files) until it returns a value. */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
