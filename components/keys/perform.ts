/**
 * Carries out a resolved key action: calls on the agent controller, or changes the screen's
 * own state. No key decoding happens here (that is the table's job), and no agent logic.
 */
import type { AgentController } from '../controller.js';
import * as ed from '../input/lineEditor.js';
import { recallNext, recallPrev, remember } from '../input/history.js';
import { paneAt, type Layout } from '../layout.js';
import {
  commonPrefix,
  cycleFocus,
  moveToolSelection,
  scrollBy,
  scrollTo,
  type Scroller,
  type UiState,
} from '../ui/uiState.js';
import type { Focus, Resolved } from './bindings.js';

export interface PerformEnv {
  controller: AgentController;
  get(): UiState;
  set(next: UiState): void;
  layout: Layout;
  /** How far each scroller can go, as the panes last reported (Infinity: not known yet). */
  limits: Record<Scroller, number>;
  /**
   * Where the conversation and reasoning panes show their view now, as they last reported
   * it: it moves with the content while scrolled up, so a scroll key starts from there.
   */
  offsets?: Partial<Record<Scroller, number>>;
  /** Focus targets on screen, in Tab order. */
  focusables: readonly Focus[];
  complete(prefix: string): string[];
  redraw(): void;
  /** Ctrl+S: mouse reporting on or off (the screen owns the terminal mode). */
  toggleMouse?(): void;
}

/** Rows one wheel notch scrolls (what most terminals and editors use). */
export const WHEEL_LINES = 3;

type Edit = (s: ed.LineState) => ed.LineState;

const EDITS: Partial<Record<Resolved['action'], Edit>> = {
  cursorLeft: ed.left,
  cursorRight: ed.right,
  lineStart: ed.lineStart,
  lineEnd: ed.lineEnd,
  killToStart: ed.killToStart,
  killWordBack: ed.killWordBack,
  killToEnd: ed.killToEnd,
  deleteBack: ed.deleteBack,
  newline: (s) => ed.insert(s, '\n'),
};

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
  return Math.max(1, l.reply - 1);
}

/** The scroller a wheel turn on `row` moves: the pane under the pointer, or undefined. */
function wheelTarget(env: PerformEnv, ui: UiState, row: number): Scroller | 'tools' | undefined {
  const open = ui.overlay === 'help' || ui.overlay === 'detail';
  const at = paneAt(env.layout, row, open);
  if (at === undefined) return undefined;
  return at === 'overlay' ? target(ui) : at;
}

/** Scroll keys: reply and reasoning count from the bottom (↑ is +1), overlays from the top. */
function scroll(
  env: PerformEnv,
  ui: UiState,
  lines: number | 'top' | 'bottom',
  t: Scroller | 'tools' = target(ui),
): UiState {
  const ids = env.controller.store.getState().toolLog.map((e) => e.callId);
  if (t === 'tools') {
    if (lines === 'top')
      return moveToolSelection({ ...ui, toolSel: ids[0], toolTop: 0 }, ids, 0, env.layout.tools);
    if (lines === 'bottom') return { ...ui, toolSel: undefined };
    return moveToolSelection(ui, ids, -lines, env.layout.tools);
  }
  const fromTop = t === 'help' || t === 'detail';
  const limit = env.limits[t];
  const next =
    lines === 'top'
      ? scrollTo(ui, t, fromTop ? 0 : limit === Infinity ? Number.MAX_SAFE_INTEGER : limit)
      : lines === 'bottom'
        ? scrollTo(ui, t, fromTop ? (limit === Infinity ? 0 : limit) : 0)
        : scrollBy(ui, t, fromTop ? -lines : lines, limit, env.offsets?.[t] ?? ui.scroll[t]);
  // A second key before the pane has drawn again must start from this one's result.
  if (env.offsets && !fromTop) env.offsets[t] = next.scroll[t];
  return next;
}

function typeText(ui: UiState, text: string): UiState {
  return { ...ui, focus: 'input', line: ed.insert(ui.line, text), completions: [] };
}

export function perform(r: Resolved, env: PerformEnv): void {
  const c = env.controller;
  const ui = env.get();
  const set = (next: UiState): void => env.set(next);
  const edit = EDITS[r.action];
  if (edit) {
    set({ ...ui, line: edit(ui.line), completions: [] });
    return;
  }
  switch (r.action) {
    case 'clearInput':
      set({ ...ui, line: ed.EMPTY_LINE, completions: [] });
      return;
    case 'quit':
      set({ ...ui, line: ed.EMPTY_LINE });
      c.requestExit();
      return;
    case 'cancel':
    case 'interrupt':
      c.interrupt();
      return;
    case 'interruptAndType':
      c.interrupt();
      set(typeText(ui, r.text ?? ''));
      return;
    case 'type':
      set(typeText(ui, r.text ?? ''));
      return;
    case 'redraw':
      env.redraw();
      return;
    case 'togglePause':
      c.togglePause();
      return;
    case 'help':
      set({ ...ui, overlay: 'help', scroll: { ...ui.scroll, help: 0 } });
      return;
    case 'closeOverlay':
      set({ ...ui, overlay: 'none' });
      return;
    case 'ledger':
      set({ ...ui, overlay: ui.overlay === 'ledger' ? 'none' : 'ledger' });
      return;
    case 'ignore':
      return;
    case 'approveYes':
      c.answerApproval('yes');
      return;
    case 'approveNo':
      c.answerApproval('no');
      return;
    case 'approveAlways':
      c.answerApproval('always');
      return;
    case 'complete': {
      const found = env.complete(ui.line.value);
      if (found.length === 1) set({ ...ui, line: ed.setValue(`${found[0]} `), completions: [] });
      else {
        const prefix = commonPrefix(found);
        const line = prefix.length > ui.line.value.length ? ed.setValue(prefix) : ui.line;
        set({ ...ui, line, completions: found });
      }
      return;
    }
    case 'focusNext':
    case 'focusPrev':
      set({
        ...ui,
        focus: cycleFocus(ui.focus, env.focusables, r.action === 'focusNext' ? 1 : -1),
      });
      return;
    case 'focusInput':
      set({ ...ui, focus: 'input' });
      return;
    case 'submit': {
      const text = ui.line.value;
      c.submit(text);
      if (env.offsets) env.offsets.reply = 0;
      set({
        ...scrollTo(ui, 'reply', 0),
        focus: 'input',
        line: ed.EMPTY_LINE,
        history: remember(ui.history, text),
        completions: [],
      });
      return;
    }
    case 'historyPrev': {
      const got = recallPrev(ui.history, ui.line.value);
      if (got) set({ ...ui, history: got.history, line: ed.setValue(got.value) });
      return;
    }
    case 'historyNext': {
      const got = recallNext(ui.history);
      if (got) set({ ...ui, history: got.history, line: ed.setValue(got.value) });
      return;
    }
    case 'scrollUp':
    case 'selectPrev':
      set(scroll(env, ui, 1));
      return;
    case 'scrollDown':
    case 'selectNext':
      set(scroll(env, ui, -1));
      return;
    case 'pageUp':
      set(scroll(env, ui, pageOf(target(ui), env.layout)));
      return;
    case 'pageDown':
      set(scroll(env, ui, -pageOf(target(ui), env.layout)));
      return;
    case 'scrollTop':
      set(scroll(env, ui, 'top'));
      return;
    case 'scrollBottom':
      set(scroll(env, ui, 'bottom'));
      return;
    case 'wheelUp':
    case 'wheelDown': {
      const to = wheelTarget(env, ui, r.row ?? 0);
      const lines = r.action === 'wheelUp' ? WHEEL_LINES : -WHEEL_LINES;
      if (to) set(scroll(env, ui, lines, to));
      return;
    }
    case 'toggleMouse':
      env.toggleMouse?.();
      return;
    case 'expand': {
      const log = c.store.getState().toolLog;
      const id = ui.toolSel ?? log[log.length - 1]?.callId;
      if (id !== undefined)
        set({ ...ui, overlay: 'detail', detailId: id, scroll: { ...ui.scroll, detail: 0 } });
      return;
    }
    default:
      return;
  }
}
