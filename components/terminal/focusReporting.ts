/**
 * Focus reporting (xterm's mode 1004): while it is on, the terminal sends `ESC [ I` when its
 * window gains focus and `ESC [ O` when it loses it. The notifier uses it to stay silent
 * while the user is looking at the screen and to call them when they are not. The reports
 * arrive on the key input; useKeys hands them here and never treats them as keys.
 */
import { createContext } from 'react';
import { Listeners } from '../../src/core/listeners.js';

export const FOCUS_REPORTING_ON = '\x1b[?1004h';
export const FOCUS_REPORTING_OFF = '\x1b[?1004l';
export const FOCUS_IN = '\x1b[I';
export const FOCUS_OUT = '\x1b[O';

/** `true` for a focus-in report, `false` for focus-out, undefined for anything else. */
export function focusReport(data: string): boolean | undefined {
  if (data === FOCUS_IN) return true;
  if (data === FOCUS_OUT) return false;
  return undefined;
}

/** What the terminal last said about its focus, for the time the screen is attached. */
export interface FocusState {
  /** Focused, or never reported (a terminal without mode 1004: assume the user looks). */
  readonly focused: boolean;
  /** The screen is shown (between `start` and its undo). */
  readonly attached: boolean;
  /** A report from the terminal (useKeys calls it). */
  report(focused: boolean): void;
  /** Told on every change of `focused`; returns the undo. */
  onChange(listener: (focused: boolean) => void): () => void;
  /** Turns reporting on; returns the undo that turns it off again (once). */
  start(out: { write(chunk: string): unknown }): () => void;
}

export function createFocusState(): FocusState {
  let focused = true;
  let attached = false;
  const listeners = new Listeners<[boolean]>();
  const set = (now: boolean): void => {
    if (now === focused) return;
    focused = now;
    listeners.emit(now);
  };
  return {
    get focused() {
      return focused;
    },
    get attached() {
      return attached;
    },
    report(now) {
      set(now);
    },
    onChange(listener) {
      return listeners.subscribe(listener);
    },
    start(out) {
      attached = true;
      out.write(FOCUS_REPORTING_ON);
      return () => {
        if (!attached) return;
        attached = false;
        set(true);
        out.write(FOCUS_REPORTING_OFF);
      };
    },
  };
}

/** Where useKeys sends the focus reports it takes out of the input (nowhere by default). */
export const FocusReportContext = createContext<(focused: boolean) => void>(() => {});
