import { useLayoutEffect, useMemo, useRef } from 'react';

/**
 * Whether a key may answer the approval prompt. Someone typing a message when a prompt
 * appears did not read it: a stray `a` in "that is all" must not allow a tool for the rest of
 * the run. So y / n / a / Esc answer only once the prompt has been on screen for `delayMs`
 * and nothing was typed for as long; until then letters go on into the message.
 */
export interface ApprovalGuard {
  /** Whether the prompt for request `id` (the one waiting now) may be answered now. */
  armed(id: number | undefined): boolean;
  /** Notes a typed key (text or an edit of the message). */
  typed(): void;
}

/**
 * `shownId` is the id of the request whose prompt is on screen (undefined when none is);
 * `now` is the clock (tests pass their own, so no test waits for real time).
 */
export function useApprovalGuard(
  shownId: number | undefined,
  delayMs: number,
  now: () => number,
): ApprovalGuard {
  const seen = useRef<{ id: number; at: number } | undefined>(undefined);
  const lastTyped = useRef<number | undefined>(undefined);
  const clock = useRef(now);
  clock.current = now;
  // After the commit that drew the prompt: from here on the user can see it.
  useLayoutEffect(() => {
    if (shownId !== undefined && seen.current?.id !== shownId)
      seen.current = { id: shownId, at: clock.current() };
  }, [shownId]);
  return useMemo(
    () => ({
      armed(id) {
        const s = seen.current;
        if (id === undefined || s === undefined || s.id !== id) return false;
        const t = clock.current();
        const typed = lastTyped.current;
        return t - s.at >= delayMs && (typed === undefined || t - typed >= delayMs);
      },
      typed() {
        lastTyped.current = clock.current();
      },
    }),
    [delayMs],
  );
}
