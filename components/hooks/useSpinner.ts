import { useEffect, useState } from 'react';

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/** A spinner frame that turns while `active`; the timer stops when it is not. */
export function useSpinner(active: boolean, intervalMs = 100): string {
  const [i, setI] = useState(0);
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setI((n) => (n + 1) % SPINNER_FRAMES.length), intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs]);
  return active ? SPINNER_FRAMES[i]! : ' ';
}
