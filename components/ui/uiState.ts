/**
 * What the screen itself remembers (not the agent): focus, overlay, the input line and its
 * history, scroll positions and the tool-log selection. Plain data with pure helpers; it
 * changes only through `reduceUi` (uiReducer.ts), in the screen's one UI store (uiStore.ts).
 */
import type { SessionChoice } from '../../src/history/sessionChoices.js';
import type { Focus, Overlay, QueueLine } from '../keys/bindings.js';
import { EMPTY_LINE, type LineState } from '../input/lineEditor.js';
import type { Paste } from '../input/pastes.js';
import { emptyHistory, type InputHistory } from '../input/history.js';

/**
 * Things that scroll: reply and reasoning count rows from the bottom, overlays and the
 * approval card from the top.
 */
export type Scroller = 'reply' | 'reasoning' | 'help' | 'detail' | 'card';

/** Where a scroller was asked to be. */
export interface ScrollPos {
  /** Rows from the bottom (reply, reasoning) or from the top (overlays). */
  offset: number;
  /**
   * Bumped with every scroll action: a pane that keeps its view on the same content while
   * rows arrive (scrollAnchor.ts) starts again from `offset` when its mark changes.
   */
  mark: number;
}

export interface UiState {
  focus: Focus;
  overlay: Overlay;
  line: LineState;
  /** Large pastes shown in the line as placeholders, with their text (input/pastes.ts). */
  pastes: readonly Paste[];
  /** The input line is the queue line: Enter queues without stopping the agent (`>` opens it). */
  queueLine: QueueLine;
  /** The queued message the queue line edits (its id), when one was picked with ↑. */
  editing: string | undefined;
  history: InputHistory;
  /** The one record of every scroll position (what is shown is derived from it). */
  scroll: Record<Scroller, ScrollPos>;
  /** The selected tool call (by id, so it survives the log being trimmed); undefined follows the newest. */
  toolSel: string | undefined;
  /** First visible entry of the tool log while an entry is selected. */
  toolTop: number;
  /**
   * Entries read back from the history, shown before the store's log while an entry is
   * selected (scrolled past the oldest the store keeps); 0 again when following the newest.
   */
  toolReach: number;
  /** The call shown in the detail overlay. */
  detailId: string | undefined;
  /** Candidates from the last Tab completion, shown in the hint line until the next edit. */
  completions: readonly string[];
  /** When Ctrl+C was last pressed (epoch ms), for "press again to quit". */
  lastCtrlC: number | undefined;
  /** A one-frame blank screen for Ctrl+L (so Ink writes the whole frame again). */
  blank: boolean;
  /** The absence the "while you were away" digest covers: its last key and the next (epoch ms). */
  away: { since: number; until: number } | undefined;
  /** The session picker's list (this folder's sessions) and the chosen row. */
  picker: { choices: readonly SessionChoice[]; sel: number } | undefined;
  /** The `@` completion list under the input (input/mentionList.ts). */
  mention: MentionList | undefined;
  /** Where the `@` mention closed with Esc starts: its list stays closed while it is typed. */
  mentionClosed: number | undefined;
}

/** Paths offered for the `@` mention being typed: where its `@` is, what follows, the row chosen. */
export interface MentionList {
  start: number;
  query: string;
  items: readonly string[];
  sel: number;
}

const AT_START: ScrollPos = { offset: 0, mark: 0 };

export function initialUiState(): UiState {
  return {
    focus: 'input',
    overlay: 'none',
    line: EMPTY_LINE,
    pastes: [],
    queueLine: 'closed',
    editing: undefined,
    history: emptyHistory(),
    scroll: {
      reply: AT_START,
      reasoning: AT_START,
      help: AT_START,
      detail: AT_START,
      card: AT_START,
    },
    toolSel: undefined,
    toolTop: 0,
    toolReach: 0,
    detailId: undefined,
    completions: [],
    lastCtrlC: undefined,
    blank: false,
    away: undefined,
    picker: undefined,
    mention: undefined,
    mentionClosed: undefined,
  };
}

/**
 * Moves a scroll position by `delta`, within 0..limit (limit may be Infinity: not yet known),
 * from `from` (the position the pane shows, which may have moved with the content).
 */
export function scrollBy(
  ui: UiState,
  which: Scroller,
  delta: number,
  limit: number,
  from: number = ui.scroll[which].offset,
): UiState {
  const cur = Math.min(from, limit);
  return scrollTo(ui, which, Math.max(0, Math.min(limit, cur + delta)));
}

/** Asks `which` to show `value` (a new mark: anchoring starts again from there). */
export function scrollTo(ui: UiState, which: Scroller, value: number): UiState {
  const pos = { offset: Math.max(0, value), mark: ui.scroll[which].mark + 1 };
  return { ...ui, scroll: { ...ui.scroll, [which]: pos } };
}

/** The next (or previous) focus among the panes that are on screen. */
export function cycleFocus(current: Focus, visible: readonly Focus[], step: 1 | -1): Focus {
  if (visible.length === 0) return 'input';
  const i = visible.indexOf(current);
  const at = i === -1 ? 0 : (i + step + visible.length) % visible.length;
  return visible[at]!;
}

/**
 * The tool log's window: the first of `count` entries shown in `height` rows. Following the
 * newest (no selection, `sel` -1): the tail. With the entry `sel` selected: the remembered
 * `top`, moved just enough to keep the selection in view. The one place the window is worked
 * out: the pane's view draws it, and a move of the selection remembers it.
 */
export function toolWindowStart(count: number, sel: number, top: number, height: number): number {
  const h = Math.max(1, height);
  const tail = Math.max(0, count - h);
  if (sel === -1) return tail;
  let start = Math.max(0, Math.min(top, tail));
  if (sel < start) start = sel;
  if (sel >= start + h) start = sel - h + 1;
  return start;
}

/**
 * Moves the tool-log selection by `delta` entries (clamped), keeping it inside a window of
 * `height` rows. With nothing selected, the first move selects the newest entry.
 */
export function moveToolSelection(
  ui: UiState,
  ids: readonly string[],
  delta: number,
  height: number,
): UiState {
  if (ids.length === 0) return ui;
  const cur = ui.toolSel === undefined ? -1 : ids.indexOf(ui.toolSel);
  const from = cur === -1 ? ids.length - 1 : cur;
  const idx = cur === -1 ? from : Math.max(0, Math.min(ids.length - 1, from + delta));
  // Nothing was selected: the window was the tail (an unbounded top is clamped to it).
  const top = toolWindowStart(ids.length, idx, cur === -1 ? Infinity : ui.toolTop, height);
  return { ...ui, toolSel: ids[idx], toolTop: top };
}

/** The longest common prefix of the candidates (for Tab completion). */
export function commonPrefix(items: readonly string[]): string {
  if (items.length === 0) return '';
  let p = items[0]!;
  for (const s of items) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}
