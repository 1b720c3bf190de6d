/** The vocabulary of the keybinding table: contexts, conditions, actions. */
import type { Key } from 'ink';
import type { MessageKey } from '../../src/i18n/messages.js';
import type { MachineState } from '../../src/machine/machine.js';

/** Which part of the screen takes the arrow keys. */
export type Focus = 'input' | 'reply' | 'reasoning' | 'tools';

/**
 * What covers the panes: nothing, the help, one tool call's full details, the cycle ledger,
 * the "while you were away" digest, or the session picker (`/resume`).
 */
export type Overlay = 'none' | 'help' | 'detail' | 'ledger' | 'away' | 'sessions';

export type Action =
  | 'quit'
  | 'detach'
  | 'clearInput'
  | 'cancel'
  | 'redraw'
  | 'togglePause'
  | 'help'
  | 'ledger'
  | 'closeOverlay'
  | 'ignore'
  | 'approveYes'
  | 'approveNo'
  | 'approveAlways'
  | 'complete'
  | 'steerMessage'
  | 'focusNext'
  | 'focusPrev'
  | 'focusInput'
  | 'interrupt'
  | 'interruptAndType'
  | 'submit'
  | 'newline'
  | 'type'
  | 'historyPrev'
  | 'historyNext'
  | 'cursorLeft'
  | 'cursorRight'
  | 'lineStart'
  | 'lineEnd'
  | 'killToStart'
  | 'killWordBack'
  | 'killToEnd'
  | 'deleteBack'
  | 'scrollUp'
  | 'scrollDown'
  | 'pageUp'
  | 'pageDown'
  | 'scrollTop'
  | 'scrollBottom'
  | 'cardUp'
  | 'cardDown'
  | 'cardPageUp'
  | 'cardPageDown'
  | 'cardTop'
  | 'cardBottom'
  | 'selectPrev'
  | 'selectNext'
  | 'expand'
  | 'wheelUp'
  | 'wheelDown'
  | 'toggleMouse'
  | 'openQueue'
  | 'closeQueue'
  | 'queueMessage'
  | 'queuePrev'
  | 'queueNext'
  | 'dropQueued'
  | 'pickerUp'
  | 'pickerDown'
  | 'pickerOpen'
  | 'expandPaste'
  | 'mentionPrev'
  | 'mentionNext'
  | 'mentionAccept'
  | 'mentionClose';

/**
 * The queue line (talk without interrupting): closed, open for a new message, or open on a
 * queued message picked for editing.
 */
export type QueueLine = 'closed' | 'new' | 'editing';

/**
 * Ink's key flags, plus F1 (which Ink reports with no flag) and `paste`: the text came in one
 * bracketed paste, so it is text to insert, never a key (see useKeys).
 */
export type KeyPress = Partial<Key> & {
  f1?: boolean;
  paste?: boolean;
  /** A mouse wheel turn (SGR mouse reporting), and the screen row it happened on (1-based). */
  wheel?: 'up' | 'down';
  row?: number;
};

/** What `resolveKey` needs to know about the screen at the moment of the key. */
export interface KeyContext {
  machine: MachineState;
  focus: Focus;
  overlay: Overlay;
  /** The input box's text. */
  input: string;
  /** A turn runs or is due (THINKING, AWAITING_APPROVAL, or streaming). */
  busy: boolean;
  /** A Ctrl+C was pressed less than two seconds ago. */
  exitArmed: boolean;
  /**
   * The approval prompt has been on screen for `APPROVAL_ARM_MS` and nothing was typed in
   * that time, so y / n / a / Esc are meant for it (not stray keys of a message).
   */
  approvalArmed: boolean;
  /** Whether the input line is the queue line (Enter queues instead of sending). */
  queueLine: QueueLine;
  /** The input line holds a paste placeholder (Ctrl+O opens it). */
  pasted?: boolean;
  /** The `@` path list is open under the input (↑↓ choose, Tab/Enter put, Esc closes). */
  mention?: boolean;
}

/** When a binding applies; every field given must hold. */
export interface When {
  states?: readonly MachineState[];
  focus?: readonly Focus[];
  /** Default: only without an overlay. */
  overlay?: readonly Overlay[] | 'any';
  /** `words`: text that is not a /command. */
  input?: 'empty' | 'filled' | 'words' | 'command' | 'exitWord' | 'detachWord';
  busy?: boolean;
  exitArmed?: boolean;
  approvalArmed?: boolean;
  queueLine?: readonly QueueLine[];
  pasted?: boolean;
  mention?: boolean;
}

export type Matcher = (input: string, key: KeyPress) => boolean;

export interface Binding {
  /** The keys as the help shows them. */
  keys: readonly string[];
  match: Matcher;
  when: When;
  action: Action;
  /** The help's line for this row; rows sharing one are listed together. Internal rows have none. */
  description?: MessageKey;
  /** A short label for the one-line key hint, its place in that line, and the keys it names. */
  hint?: { label: MessageKey; order: number; keys?: string };
}

export interface Resolved {
  action: Action;
  /** The text to insert, for `type` and `interruptAndType`. */
  text?: string;
  /** The text came in one bracketed paste (a large one becomes a placeholder). */
  paste?: boolean;
  /** The screen row of a mouse wheel turn (1-based). */
  row?: number;
  binding: Binding;
}

/** The window in which a second Ctrl+C always quits. */
export const CTRL_C_EXIT_WINDOW_MS = 2000;

/**
 * How long the approval prompt must have been on screen, and typing have stopped, before
 * y / n / a / Esc answer it. Someone typing a message when the prompt appears is not
 * answering it: their letters go on into the message.
 */
export const APPROVAL_ARM_MS = 400;

/** Whether `w` holds in `ctx` (the key itself is the matcher's business). */
export function applies(w: When, ctx: KeyContext): boolean {
  const overlay = w.overlay ?? ['none'];
  if (overlay !== 'any' && !overlay.includes(ctx.overlay)) return false;
  if (w.states && !w.states.includes(ctx.machine)) return false;
  if (w.focus && !w.focus.includes(ctx.focus)) return false;
  if (w.busy !== undefined && w.busy !== ctx.busy) return false;
  if (w.exitArmed !== undefined && w.exitArmed !== ctx.exitArmed) return false;
  if (w.approvalArmed !== undefined && w.approvalArmed !== ctx.approvalArmed) return false;
  if (w.queueLine && !w.queueLine.includes(ctx.queueLine)) return false;
  if (w.pasted !== undefined && w.pasted !== (ctx.pasted === true)) return false;
  if (w.mention !== undefined && w.mention !== (ctx.mention === true)) return false;
  switch (w.input) {
    case undefined:
      return true;
    case 'empty':
      return ctx.input === '';
    case 'filled':
      return ctx.input.trim() !== '';
    case 'words':
      return ctx.input.trim() !== '' && !ctx.input.trim().startsWith('/');
    case 'command':
      return /^\/\S*$/.test(ctx.input);
    case 'exitWord':
      return /^\/?exit$/i.test(ctx.input.trim());
    case 'detachWord':
      return /^\/detach$/i.test(ctx.input.trim());
  }
}
