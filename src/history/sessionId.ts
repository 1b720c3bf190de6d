let lastStamp = 0;

/**
 * A new session id that sorts by creation time: `2026-11-30T20-15-03-123-k3x` (UTC, then
 * milliseconds, then a random tail so two processes never collide). Within one process ids
 * strictly increase, even when created in the same millisecond.
 */
export function newSessionId(now: number = Date.now()): { id: string; createdAt: number } {
  const at = Math.max(now, lastStamp + 1);
  lastStamp = at;
  const iso = new Date(at).toISOString(); // 2026-11-30T20:15:03.123Z
  const stamp = iso.slice(0, 23).replace(/[:.]/g, '-');
  const tail = Math.random().toString(36).slice(2, 5).padEnd(3, '0');
  return { id: `${stamp}-${tail}`, createdAt: at };
}

/**
 * Whether `id` can name a session folder: letters, digits, `.`, `_`, `-`, not starting with a
 * dot. Keeps user-typed ids from escaping the sessions folder (`../x`, `/etc`).
 */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(id) && id.length <= 200;
}
