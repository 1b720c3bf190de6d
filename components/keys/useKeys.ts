import { useCallback, useEffect, useRef } from 'react';
import { useInput, useStdin, type Key } from 'ink';
import type { KeyPress } from './bindings.js';

/** The escape sequences terminals send for F1 (Ink parses them but reports no flag). */
const F1_SEQUENCES = new Set(['\x1bOP', '\x1b[11~', '\x1b[[A', '\x1b[1P']);

/**
 * Every key press, as Ink reports it, plus F1. The handler may change on every render; the
 * subscription does not (Ink resubscribes whenever the handler's identity changes).
 */
export function useKeys(handler: (input: string, key: KeyPress) => void, active = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  const stable = useCallback((input: string, key: Key) => ref.current(input, key), []);
  useInput(stable, { isActive: active });

  const { internal_eventEmitter: events } = useStdin();
  useEffect(() => {
    if (!active || !events) return;
    const onRaw = (data: string): void => {
      if (F1_SEQUENCES.has(data)) ref.current('', { f1: true });
    };
    events.on('input', onRaw);
    return () => {
      events.removeListener('input', onRaw);
    };
  }, [events, active]);
}
