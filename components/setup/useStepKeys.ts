/**
 * Keys for the step on screen. The wizard root holds the one Ink input subscription, made at
 * mount; each step's widget claims the keys in a layout effect, which runs in the same
 * synchronous commit that draws it. So a key typed the instant a new step appears (a fast
 * typist, a paste, a test) reaches that step, instead of being lost in the gap before a
 * freshly mounted `useInput` subscribes.
 *
 * One claimant at a time: a step whose widget handles keys does not claim them itself.
 */
import { createContext, useContext, useLayoutEffect, useRef } from 'react';
import type { KeyPress } from '../keys/types.js';

type KeyHandler = (input: string, key: KeyPress) => void;

/** The current claimant; the root forwards every key (but Ctrl+C) to it. */
export interface KeyRouter {
  current: KeyHandler | undefined;
}

export const KeyRouterContext = createContext<KeyRouter | undefined>(undefined);

/** Routes keys to `handler` while `active`; the newest claimant wins. */
export function useStepKeys(handler: KeyHandler, active = true): void {
  const router = useContext(KeyRouterContext);
  if (!router) throw new Error('useStepKeys needs <SetupWizard> around it');
  const latest = useRef(handler);
  latest.current = handler;
  useLayoutEffect(() => {
    if (!active) return;
    const claim: KeyHandler = (input, key) => latest.current(input, key);
    router.current = claim;
    return () => {
      if (router.current === claim) router.current = undefined;
    };
  }, [active, router]);
}
