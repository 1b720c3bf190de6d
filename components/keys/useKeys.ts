import { useCallback, useContext, useEffect, useRef } from 'react';
import { useInput, useStdin, type Key } from 'ink';
import { emitKeyToInk, inkInputEvents } from '../terminal/inkInternals.js';
import type { KeyPress } from './bindings.js';
import { createInputChunks } from './inputChunks.js';
import { mouseReports } from './mouse.js';
import { FocusReportContext, focusReport } from '../terminal/focusReporting.js';

/** The escape sequences terminals send for F1 (Ink parses them but reports no flag). */
const F1_SEQUENCES = new Set(['\x1bOP', '\x1b[11~', '\x1b[[A', '\x1b[1P']);

/**
 * Every key press, as Ink reports it, plus F1, bracketed pastes and mouse wheel turns. The handler may change on
 * every render; the subscription does not (Ink resubscribes whenever the handler's identity
 * changes).
 *
 * Ink's input events are watched raw first (see inputChunks.ts; they are reached through the
 * door into Ink's internals, inkInternals.ts): a paste is gathered and handed over as one
 * text with `paste: true`; a run of keys that arrived together is put
 * back on the event stream one key at a time, so Ink decodes each as if typed alone. The
 * original event is then skipped when Ink's own listener reaches it. This relies on the raw
 * listener being subscribed before `useInput`'s: effects run in the order they are declared.
 */
export function useKeys(handler: (input: string, key: KeyPress) => void, active = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  /** Ink's listener is about to see an event this hook has already handled. */
  const skip = useRef(false);
  const chunks = useRef(createInputChunks()).current;

  // Ink's raw input, through the door into its internals (none on an Ink it was not written
  // for: then keys reach the handler as Ink reports them, a run that arrived together as one).
  const events = inkInputEvents(useStdin());
  const reportFocus = useContext(FocusReportContext);
  useEffect(() => {
    if (!active || !events) return;
    let depth = 0;
    const onRaw = (data: string): void => {
      // A new event from the terminal: nothing before it is still waiting to be skipped.
      if (depth === 0) skip.current = false;
      // Focus reports (mode 1004) are never keys: the notifier hears them instead.
      const focus = chunks.pasting ? undefined : focusReport(data);
      if (focus !== undefined) {
        reportFocus(focus);
        skip.current = true;
        return;
      }
      // Mouse reports are never keys: a wheel turn is handed over, anything else dropped.
      const mice = chunks.pasting ? undefined : mouseReports(data);
      if (mice) {
        for (const e of mice) if (e.wheel) ref.current('', { wheel: e.wheel, row: e.row });
        skip.current = true;
        return;
      }
      const pieces = chunks.feed(data);
      const only = pieces.length === 1 ? pieces[0] : undefined;
      if (only?.kind === 'key' && only.data === data && !F1_SEQUENCES.has(data)) return;
      depth += 1;
      try {
        for (const piece of pieces) {
          if (piece.kind === 'paste') ref.current(piece.text, { paste: true });
          else if (F1_SEQUENCES.has(piece.data)) ref.current('', { f1: true });
          // Each key is handled in full (by this listener and Ink's) before the next.
          else emitKeyToInk(events, piece.data);
        }
      } finally {
        depth -= 1;
        skip.current = true;
      }
    };
    events.on('input', onRaw);
    return () => {
      events.removeListener('input', onRaw);
    };
  }, [events, active, chunks, reportFocus]);

  const stable = useCallback((input: string, key: Key) => {
    if (skip.current) {
      skip.current = false;
      return;
    }
    ref.current(input, key);
  }, []);
  useInput(stable, { isActive: active });
}
