import { useEffect, useState } from 'react';
import { onNextFrame } from './frameClock.js';

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/**
 * A spinner frame that turns while `active`; the timer stops when it is not. A tick waits
 * for the frame a stream is about to draw anyway (onNextFrame), so it never draws its own.
 */
export function useSpinner(active: boolean, intervalMs = 100): string {
  const [i, setI] = useState(0);
  useEffect(() => {
    if (!active) return;
    let live = true;
    // One tick waiting at most: a late frame never makes the spinner skip a step.
    let waiting = false;
    const turn = (): void => {
      waiting = false;
      if (live) setI((n) => (n + 1) % SPINNER_FRAMES.length);
    };
    const id = setInterval(() => {
      if (waiting) return;
      waiting = true;
      onNextFrame(turn);
    }, intervalMs);
    return () => {
      live = false;
      clearInterval(id);
    };
  }, [active, intervalMs]);
  return active ? SPINNER_FRAMES[i]! : ' ';
}
