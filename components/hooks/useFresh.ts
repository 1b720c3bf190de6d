import { useEffect, useState } from 'react';

/**
 * Whether something that happened at `at` (epoch ms) is still within `ttlMs`; re-renders
 * once when it expires, so a notice in the status bar goes away by itself.
 */
export function useFresh(at: number | undefined, ttlMs: number): boolean {
  const [, bump] = useState(0);
  const fresh = at !== undefined && at + ttlMs > Date.now();
  useEffect(() => {
    if (!fresh || at === undefined) return;
    // Measured now, not at render: an effect that runs late (a busy machine) still
    // re-renders, at once if the time is already up, so a frame drawn fresh never sticks.
    const left = Math.max(0, at + ttlMs - Date.now());
    const id = setTimeout(() => bump((n) => n + 1), left + 5);
    return () => clearTimeout(id);
  }, [at, ttlMs, fresh]);
  return fresh;
}
