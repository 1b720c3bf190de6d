/**
 * The screen's own state changes, as one pure function `(ui, action, view) → ui`. `view` is
 * what the last frame measured (the layout, where each pane shows its view and how far it
 * can scroll), computed top-down by the screen; nothing here calls the agent or draws.
 */
import type { SessionChoice } from '../../src/history/sessionChoices.js';
import * as ed from '../input/lineEditor.js';
import { recallNext, recallPrev, remember } from '../input/history.js';
import {
  acceptMention,
  closeMention,
  mentionFound,
  moveMention,
  syncMention,
} from '../input/mentionList.js';
import { deletePasteBack, expandPasteAt, insertPaste, keptPastes } from '../input/pastes.js';
import { focusables, paneAt, type Layout } from '../layout.js';
import {
  commonPrefix,
  cycleFocus,
  moveToolSelection,
  scrollBy,
  scrollTo,
  type Scroller,
  type UiState,
} from './uiState.js';

/** Rows one wheel notch scrolls (what most terminals and editors use). */
export const WHEEL_LINES = 3;

/** Edits of the input line that need nothing but the line. */
export const LINE_EDITS = {
  cursorLeft: ed.left,
  cursorRight: ed.right,
  lineStart: ed.lineStart,
  lineEnd: ed.lineEnd,
  killToStart: ed.killToStart,
  killWordBack: ed.killWordBack,
  killToEnd: ed.killToEnd,
  deleteBack: ed.deleteBack,
  newline: (s: ed.LineState) => ed.insert(s, '\n'),
} as const satisfies Record<string, (s: ed.LineState) => ed.LineState>;
export type LineEdit = keyof typeof LINE_EDITS;

/** How far a scroll action moves: rows (up is positive), a page, or an end. */
type ScrollBy = number | 'pageUp' | 'pageDown' | 'top' | 'bottom';

export type UiAction =
  | { type: 'edit'; edit: LineEdit }
  | { type: 'clearInput' }
  | { type: 'type'; text: string }
  /** A large paste, shown as the placeholder `[what]` (input/pastes.ts). */
  | { type: 'paste'; text: string; what: string }
  /** Ctrl+O: the placeholder at the cursor becomes its pasted text again. */
  | { type: 'expandPaste' }
  /** Tab completion found these candidates for the input line. */
  | { type: 'completed'; found: readonly string[] }
  /** The input line was sent to the agent. */
  | { type: 'submitted'; text: string }
  /** `>`: the input line becomes the queue line. */
  | { type: 'openQueue' }
  /** The queue line closes (Esc, or its message was queued): `text` goes in the history. */
  | { type: 'closeQueue'; text?: string }
  /** A queued message picked for editing on the queue line (none: back to a new message). */
  | { type: 'pickQueued'; item: { id: string; text: string } | undefined }
  | { type: 'historyPrev' }
  | { type: 'historyNext' }
  | { type: 'focusStep'; step: 1 | -1 }
  | { type: 'focusInput' }
  | { type: 'openHelp' }
  | { type: 'closeOverlay' }
  | { type: 'toggleLedger' }
  /** Open the selected (else the newest) tool call in full. */
  | { type: 'expand' }
  | { type: 'scroll'; by: ScrollBy }
  /** The approval card's own scroll keys (its content can be longer than the card). */
  | { type: 'scrollCard'; by: ScrollBy }
  /** A wheel turn on screen row `row` (1-based): it scrolls the pane under the pointer. */
  | { type: 'wheel'; lines: number; row: number }
  | { type: 'ctrlC'; at: number }
  /** Ctrl+L's one blank frame begins (true) or ends. */
  | { type: 'blank'; on: boolean }
  /** An approval prompt appeared: it takes the floor, so overlays close. */
  | { type: 'approvalShown' }
  | { type: 'cameBack'; since: number; until: number }
  /** `/resume` listed this folder's sessions: the picker opens on the first one. */
  | { type: 'openPicker'; choices: readonly SessionChoice[] }
  /** ↑/k (-1) or ↓/j (+1) in the picker, stopping at the ends. */
  | { type: 'pickerMove'; step: 1 | -1 }
  /** Paths found for the `@` mention at `start` (input/mentionList.ts). */
  | { type: 'mentionFound'; start: number; query: string; items: readonly string[] }
  | { type: 'mentionMove'; step: 1 | -1 }
  | { type: 'mentionAccept' }
  | { type: 'mentionClose' };

/** One scroller as the last frame showed it. */
export interface ScrollView {
  /** The position shown (reply and reasoning move it with arriving content). */
  shown: number;
  /** How far it can go (Infinity: not known yet). */
  max: number;
  /** The `ScrollPos.mark` that frame was drawn from. */
  mark: number;
}

/** What the last frame measured, for the actions that depend on it. */
export interface UiView {
  layout: Layout;
  /** The tool log's call ids, oldest first (those read back from the history first). */
  toolIds: readonly string[];
  /** Entries the history holds from before the first of `toolIds` (read back on a scroll). */
  toolOlder: number;
  scroll: Record<Scroller, ScrollView>;
}

/** The scroller the scroll keys move now: an open overlay, else the focused pane. */
function target(ui: UiState): Scroller | 'tools' {
  if (ui.overlay === 'help' || ui.overlay === 'detail') return ui.overlay;
  if (ui.focus === 'reasoning') return 'reasoning';
  if (ui.focus === 'tools') return 'tools';
  return 'reply';
}

function pageOf(t: Scroller | 'tools', l: Layout): number {
  if (t === 'reasoning') return Math.max(1, l.reasoning - 1);
  if (t === 'tools') return Math.max(1, l.tools - 1);
  if (t === 'help' || t === 'detail') return Math.max(1, l.panes - 2);
  // The card's content rows (title, question and position line aside), less one kept in view.
  if (t === 'card') return Math.max(1, l.approval - 4);
  return Math.max(1, l.reply - 1);
}

/** The scroller a wheel turn on `row` moves: the pane under the pointer, or undefined. */
function wheelTarget(ui: UiState, layout: Layout, row: number): Scroller | 'tools' | undefined {
  const open = ui.overlay === 'help' || ui.overlay === 'detail';
  const at = paneAt(layout, row, open);
  if (at === undefined) return undefined;
  return at === 'overlay' ? target(ui) : at;
}

/** Entries read back from the history for each step past the oldest one shown. */
export const TOOL_PAGE = 100;

/**
 * Moves the tool-log selection (↑ is +1). A move past the oldest entry shown reads older ones
 * back from the history (a page; Home all of them): the next frame shows them above, and
 * Home again selects the first call of the session.
 */
function scrollTools(ui: UiState, view: UiView, by: number | 'top' | 'bottom'): UiState {
  const ids = view.toolIds;
  const height = view.layout.tools;
  if (by === 'bottom') return { ...ui, toolSel: undefined, toolReach: 0 };
  const reach = ui.toolSel === undefined ? 0 : ui.toolReach;
  const cur = ui.toolSel === undefined ? ids.length - 1 : ids.indexOf(ui.toolSel);
  // Home reads back all there is (the view clamps it; with nothing selected yet the view
  // has not counted them); a step reads a page.
  const past = by === 'top' ? Infinity : by - cur;
  const more =
    by === 'top' ? Infinity : past > 0 ? Math.min(view.toolOlder, Math.max(TOOL_PAGE, past)) : 0;
  const next = { ...ui, toolReach: reach + more };
  if (by === 'top')
    return moveToolSelection({ ...next, toolSel: ids[0], toolTop: 0 }, ids, 0, height);
  return moveToolSelection(next, ids, -by, height);
}

/** Scrolling: reply and reasoning count from the bottom (↑ is +1), overlays from the top. */
function scroll(ui: UiState, view: UiView, by: ScrollBy, t = target(ui)): UiState {
  const rows =
    by === 'pageUp' ? pageOf(t, view.layout) : by === 'pageDown' ? -pageOf(t, view.layout) : by;
  if (t === 'tools') return scrollTools(ui, view, rows);
  const fromTop = t === 'help' || t === 'detail' || t === 'card';
  const { shown, max, mark } = view.scroll[t];
  const pos = ui.scroll[t];
  if (rows === 'top')
    return scrollTo(ui, t, fromTop ? 0 : max === Infinity ? Number.MAX_SAFE_INTEGER : max);
  if (rows === 'bottom') return scrollTo(ui, t, fromTop ? (max === Infinity ? 0 : max) : 0);
  // From where the view is now; a key since that frame was drawn starts from its own result.
  const from = mark === pos.mark ? shown : pos.offset;
  return scrollBy(ui, t, fromTop ? -rows : rows, max, from);
}

function complete(ui: UiState, found: readonly string[]): UiState {
  if (found.length === 1)
    return { ...ui, line: ed.setValue(`${found[0]} `), pastes: [], completions: [] };
  const prefix = commonPrefix(found);
  const line = prefix.length > ui.line.value.length ? ed.setValue(prefix) : ui.line;
  return { ...ui, line, completions: found };
}

function recall(ui: UiState, got: ReturnType<typeof recallNext>): UiState {
  return got ? { ...ui, history: got.history, line: ed.setValue(got.value), pastes: [] } : ui;
}

function expand(ui: UiState, view: UiView): UiState {
  const id = ui.toolSel ?? view.toolIds[view.toolIds.length - 1];
  if (id === undefined) return ui;
  return { ...scrollTo(ui, 'detail', 0), overlay: 'detail', detailId: id };
}

/** The input line and its history. */
function reduceLine(ui: UiState, a: UiAction): UiState {
  switch (a.type) {
    case 'edit': {
      // Backspace after a placeholder deletes the whole paste, not its last bracket.
      const whole = a.edit === 'deleteBack' ? deletePasteBack(ui.line, ui.pastes) : undefined;
      if (whole) return { ...ui, ...whole, completions: [] };
      const line = LINE_EDITS[a.edit](ui.line);
      return { ...ui, line, pastes: keptPastes(line.value, ui.pastes), completions: [] };
    }
    case 'clearInput':
      return { ...ui, line: ed.EMPTY_LINE, pastes: [], completions: [] };
    case 'type':
      return { ...ui, focus: 'input', line: ed.insert(ui.line, a.text), completions: [] };
    case 'paste': {
      const text = ed.normaliseTyped(a.text);
      return {
        ...ui,
        focus: 'input',
        ...insertPaste(ui.line, ui.pastes, text, a.what),
        completions: [],
      };
    }
    case 'expandPaste': {
      const open = expandPasteAt(ui.line, ui.pastes);
      return open ? { ...ui, ...open, completions: [] } : ui;
    }
    case 'completed':
      return complete(ui, a.found);
    case 'submitted':
      return {
        ...scrollTo(ui, 'reply', 0),
        focus: 'input',
        line: ed.EMPTY_LINE,
        pastes: [],
        history: remember(ui.history, a.text),
        completions: [],
      };
    case 'openQueue':
      return { ...ui, focus: 'input', queueLine: 'new', editing: undefined, completions: [] };
    case 'closeQueue':
      return {
        ...ui,
        queueLine: 'closed',
        editing: undefined,
        line: ed.EMPTY_LINE,
        pastes: [],
        history: a.text ? remember(ui.history, a.text) : ui.history,
      };
    case 'pickQueued':
      return a.item
        ? {
            ...ui,
            queueLine: 'editing',
            editing: a.item.id,
            line: ed.setValue(a.item.text),
            pastes: [],
          }
        : { ...ui, queueLine: 'new', editing: undefined, line: ed.EMPTY_LINE, pastes: [] };
    case 'historyPrev':
      return recall(ui, recallPrev(ui.history, ui.line.value));
    case 'historyNext':
      return recall(ui, recallNext(ui.history));
    default:
      return ui;
  }
}

/**
 * The screen's state after `a`. Whenever the line changed, the `@` list follows it: a list
 * for a mention no longer being typed closes (input/mentionList.ts).
 */
export function reduceUi(ui: UiState, a: UiAction, view: UiView): UiState {
  const next = reduceAll(ui, a, view);
  return next.line === ui.line ? next : syncMention(next);
}

/** Everything else: focus, overlays, scrolling, and the screen's own timers' state. */
function reduceAll(ui: UiState, a: UiAction, view: UiView): UiState {
  switch (a.type) {
    case 'mentionFound':
      return mentionFound(ui, a);
    case 'mentionMove':
      return moveMention(ui, a.step);
    case 'mentionAccept':
      return acceptMention(ui);
    case 'mentionClose':
      return closeMention(ui);
    case 'focusStep':
      return { ...ui, focus: cycleFocus(ui.focus, focusables(view.layout), a.step) };
    case 'focusInput':
      return { ...ui, focus: 'input' };
    case 'openHelp':
      return { ...scrollTo(ui, 'help', 0), overlay: 'help' };
    case 'closeOverlay':
      return { ...ui, overlay: 'none' };
    case 'toggleLedger':
      return { ...ui, overlay: ui.overlay === 'ledger' ? 'none' : 'ledger' };
    case 'expand':
      return expand(ui, view);
    case 'scroll':
      return scroll(ui, view, a.by);
    case 'scrollCard':
      return scroll(ui, view, a.by, 'card');
    case 'wheel': {
      const to = wheelTarget(ui, view.layout, a.row);
      return to ? scroll(ui, view, a.lines, to) : ui;
    }
    case 'ctrlC':
      return { ...ui, lastCtrlC: a.at };
    case 'blank':
      return ui.blank === a.on ? ui : { ...ui, blank: a.on };
    case 'approvalShown': {
      // A new card starts at its first line (the same state when nothing changes).
      const closed = ui.overlay === 'none' ? ui : { ...ui, overlay: 'none' as const };
      return closed.scroll.card.offset === 0 ? closed : scrollTo(closed, 'card', 0);
    }
    case 'cameBack':
      return { ...ui, overlay: 'away', away: { since: a.since, until: a.until } };
    case 'openPicker':
      return { ...ui, overlay: 'sessions', picker: { choices: a.choices, sel: 0 } };
    case 'pickerMove': {
      if (!ui.picker) return ui;
      const last = Math.max(0, ui.picker.choices.length - 1);
      const sel = Math.max(0, Math.min(last, ui.picker.sel + a.step));
      return sel === ui.picker.sel ? ui : { ...ui, picker: { ...ui.picker, sel } };
    }
    default:
      return reduceLine(ui, a);
  }
}
