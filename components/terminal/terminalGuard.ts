/**
 * The alternate screen, entered once and restored exactly once. Ink 6.8 has no option for it,
 * and restoring twice makes the terminal overwrite the user's last line, so `restore` is
 * idempotent and every exit path (quit, signals, crashes) may call it.
 */
export const ENTER_ALT_SCREEN = '\x1b[?1049h';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
/** Clear the screen and scrollback, cursor home: Ctrl+L. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

export interface Writable {
  write(chunk: string): unknown;
}

export interface RawModeInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export interface TerminalGuard {
  /** Switches to the alternate screen (once). */
  enter(): void;
  /** Leaves it, shows the cursor and ends raw mode; later calls do nothing. */
  restore(): void;
  readonly entered: boolean;
  readonly restored: boolean;
}

export function createTerminalGuard(out: Writable, input?: RawModeInput): TerminalGuard {
  let entered = false;
  let restored = false;
  return {
    enter() {
      if (entered || restored) return;
      entered = true;
      out.write(ENTER_ALT_SCREEN);
    },
    restore() {
      if (restored) return;
      restored = true;
      // Shutting down before the screen was entered: nothing to undo, and no entering later.
      if (!entered) return;
      try {
        if (input?.isTTY) input.setRawMode?.(false);
      } catch {
        // The input may already be closed; the screen still has to come back.
      }
      out.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
    },
    get entered() {
      return entered;
    },
    get restored() {
      return restored;
    },
  };
}
