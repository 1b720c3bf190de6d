/**
 * The alternate screen, entered once and restored exactly once. Ink 6.8 has no option for it,
 * and restoring twice makes the terminal overwrite the user's last line, so `restore` is
 * idempotent and every exit path (quit, signals, crashes) may call it.
 */
/** Switch to the alternate screen and put the cursor home (some terminals leave it where it was). */
export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
/**
 * Bracketed paste: the terminal wraps pasted text in `ESC[200~` … `ESC[201~`, so a paste is
 * told apart from keys typed quickly (keys/inputChunks.ts).
 */
export const PASTE_ON = '\x1b[?2004h';
export const PASTE_OFF = '\x1b[?2004l';
/**
 * Mouse reporting, button events (the wheel among them) in SGR encoding. While it is on the
 * terminal's own text selection needs Shift held, hence the `mouse` setting and Ctrl+S.
 */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';
/**
 * Clear the screen, cursor home: Ctrl+L and the switch from the wizard to the app. Not the
 * scrollback (`ESC[3J`): the alternate screen has none, and some terminals would wipe the
 * user's shell history instead.
 */
export const CLEAR_SCREEN = '\x1b[2J\x1b[H';

export interface Writable {
  write(chunk: string): unknown;
}

export interface RawModeInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export interface TerminalGuard {
  /**
   * Switches to the alternate screen with bracketed paste on (once). `paste: false` leaves
   * pastes unmarked: on an Ink whose raw input the keys hook cannot reach (inkInternals.ts),
   * nothing would take the markers out of the text.
   */
  enter(opts?: { paste?: boolean }): void;
  /** Leaves it, turns mouse reporting and bracketed paste off, shows the cursor, ends raw mode; later calls do nothing. */
  restore(): void;
  /** Raw mode on while no Ink tree holds it (between two), so typed keys do not echo. */
  holdRawMode(): void;
  /** Mouse reporting on or off while in the screen (restore always turns it off). */
  setMouse(on: boolean): void;
  /**
   * Steps aside for another program (an editor): raw mode off, mouse reporting and bracketed
   * paste off, the normal screen back with the cursor shown. `comeBack` undoes it all.
   */
  stepAside(): void;
  /** Back in the alternate screen with the modes `stepAside` turned off; the screen is blank. */
  comeBack(): void;
  readonly mouse: boolean;
  readonly entered: boolean;
  readonly restored: boolean;
}

export function createTerminalGuard(out: Writable, input?: RawModeInput): TerminalGuard {
  let entered = false;
  let restored = false;
  let mouse = false;
  let paste = true;
  let aside = false;
  const setRaw = (on: boolean): void => {
    try {
      if (input?.isTTY) input.setRawMode?.(on);
    } catch {
      // A closed input cannot echo either; the screen still has to come back.
    }
  };
  return {
    enter(opts) {
      if (entered || restored) return;
      entered = true;
      paste = opts?.paste !== false;
      out.write(ENTER_ALT_SCREEN + (paste ? PASTE_ON : ''));
    },
    stepAside() {
      if (!entered || restored || aside) return;
      aside = true;
      setRaw(false);
      out.write(
        (mouse ? MOUSE_OFF : '') + (paste ? PASTE_OFF : '') + LEAVE_ALT_SCREEN + SHOW_CURSOR,
      );
    },
    comeBack() {
      if (!aside || restored) return;
      aside = false;
      out.write(ENTER_ALT_SCREEN + (paste ? PASTE_ON : '') + (mouse ? MOUSE_ON : ''));
      setRaw(true);
    },
    restore() {
      if (restored) return;
      restored = true;
      // Shutting down before the screen was entered: nothing to undo, and no entering later.
      if (!entered) return;
      setRaw(false);
      // Stepped aside, the normal screen is back already: leaving it again would overwrite
      // the user's last line.
      // Left on, the shell would receive escape codes for every click and wheel turn.
      if (!aside) out.write((mouse ? MOUSE_OFF : '') + PASTE_OFF + LEAVE_ALT_SCREEN + SHOW_CURSOR);
      mouse = false;
    },
    setMouse(on) {
      if (!entered || restored || on === mouse) return;
      mouse = on;
      if (!aside) out.write(on ? MOUSE_ON : MOUSE_OFF);
    },
    get mouse() {
      return mouse;
    },
    holdRawMode() {
      if (!entered || restored || aside) return;
      setRaw(true);
    },
    get entered() {
      return entered;
    },
    get restored() {
      return restored;
    },
  };
}
