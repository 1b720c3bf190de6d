import { useEffect, useState } from 'react';

/**
 * Whether something that happened at `at` (epoch ms) is still within `ttlMs`; re-renders
 * once when it expires, so a notice in the status bar goes away by itself.
 */
export function useFresh(at: number | undefined, ttlMs: number): boolean {
  const [, bump] = useState(0);
  const fresh = at !== undefined && at + ttlMs > Date.now();
  useEffect(() => {
    if (at === undefined) return;
    const left = at + ttlMs - Date.now();
    if (left <= 0) return;
    const id = setTimeout(() => bump((n) => n + 1), left + 5);
    return () => clearTimeout(id);
    // `fresh` too: a render that finds it expired early drops the timer.
  }, [at, ttlMs, fresh]);
  return fresh;
}
