/**
 * The screen's UI reducer, bare: no React, no Ink. `view` stands for what the last frame
 * measured; each test builds the one it needs.
 */
import { describe, expect, test } from 'vitest';
import { computeLayout, paneAt } from '../../components/layout.js';
import { reduceUi, type UiAction, type UiView } from '../../components/ui/uiReducer.js';
import { initialUiState, toolWindowStart, type UiState } from '../../components/ui/uiState.js';
import { createUiStore } from '../../components/ui/uiStore.js';

const layout = computeLayout({
  columns: 100,
  rows: 30,
  inputLines: 1,
  statusMessage: false,
  approval: false,
});

function viewOf(ui: UiState, over: Partial<UiView['scroll']> = {}, toolIds: string[] = []): UiView {
  const at = (shown: number, max: number, which: keyof UiView['scroll']) => ({
    shown,
    max,
    mark: ui.scroll[which].mark,
  });
  return {
    layout,
    toolIds,
    toolOlder: 0,
    scroll: {
      reply: at(0, Infinity, 'reply'),
      reasoning: at(0, 0, 'reasoning'),
      help: at(0, 0, 'help'),
      detail: at(0, 0, 'detail'),
      card: at(0, 0, 'card'),
      ...over,
    },
  };
}

/** Applies `actions` in turn, each against the same (stale) frame, as fast keys would. */
function run(ui: UiState, view: UiView, ...actions: UiAction[]): UiState {
  return actions.reduce((s, a) => reduceUi(s, a, view), ui);
}

describe('reduceUi', () => {
  test('is pure: it returns a new state and never changes the one it was given', () => {
    const ui = Object.freeze(initialUiState());
    const view = viewOf(ui);
    const next = reduceUi(ui, { type: 'type', text: 'hi' }, view);
    expect(next).not.toBe(ui);
    expect(next.line.value).toBe('hi');
    expect(ui.line.value).toBe('');
    // An action that changes nothing returns the very same state (no re-render).
    expect(reduceUi(ui, { type: 'approvalShown' }, view)).toBe(ui);
    expect(reduceUi(ui, { type: 'blank', on: false }, view)).toBe(ui);
  });

  test('scroll keys start from where the view is shown, then from their own result', () => {
    const ui = initialUiState();
    // The view was asked for 0 but shows 7 (rows arrived below while scrolled up).
    const view = viewOf(ui, { reply: { shown: 7, max: 50, mark: ui.scroll.reply.mark } });
    const once = reduceUi(ui, { type: 'scroll', by: 1 }, view);
    expect(once.scroll.reply.offset).toBe(8);
    // A second key before the next frame: the frame's `shown` is stale; its own result counts.
    const twice = run(ui, view, { type: 'scroll', by: 1 }, { type: 'scroll', by: 1 });
    expect(twice.scroll.reply.offset).toBe(9);
    expect(twice.scroll.reply.mark).toBe(ui.scroll.reply.mark + 2);
    // Clamped to the limit, and to 0 at the bottom.
    expect(run(ui, view, { type: 'scroll', by: 'pageUp' }).scroll.reply.offset).toBe(
      7 + layout.reply - 1,
    );
    const down = run(ui, view, { type: 'scroll', by: -100 });
    expect(down.scroll.reply.offset).toBe(0);
  });

  test('Home and End go to the ends, even before the top of a long history is known', () => {
    const ui = initialUiState();
    const top = reduceUi(ui, { type: 'scroll', by: 'top' }, viewOf(ui));
    expect(top.scroll.reply.offset).toBe(Number.MAX_SAFE_INTEGER);
    const known = reduceUi(
      ui,
      { type: 'scroll', by: 'top' },
      viewOf(ui, { reply: { shown: 0, max: 40, mark: 0 } }),
    );
    expect(known.scroll.reply.offset).toBe(40);
    expect(
      reduceUi(known, { type: 'scroll', by: 'bottom' }, viewOf(known)).scroll.reply.offset,
    ).toBe(0);
  });

  test('an open overlay takes the scroll keys and counts from the top', () => {
    let ui = reduceUi(initialUiState(), { type: 'openHelp' }, viewOf(initialUiState()));
    expect(ui.overlay).toBe('help');
    const view = viewOf(ui, { help: { shown: 0, max: 30, mark: ui.scroll.help.mark } });
    ui = run(ui, view, { type: 'scroll', by: -1 }, { type: 'scroll', by: -1 });
    expect(ui.scroll.help.offset).toBe(2);
    expect(ui.scroll.reply.offset).toBe(0);
    ui = reduceUi(ui, { type: 'scroll', by: 'bottom' }, view);
    expect(ui.scroll.help.offset).toBe(30);
    // Reopened, it starts at its top again.
    ui = run(ui, view, { type: 'closeOverlay' }, { type: 'openHelp' });
    expect(ui.scroll.help.offset).toBe(0);
  });

  test('the wheel scrolls the pane under the pointer, whatever has the focus', () => {
    const ui = initialUiState();
    const view = viewOf(ui, { reasoning: { shown: 0, max: 20, mark: 0 } });
    const row = Array.from({ length: 30 }, (_, i) => i + 1).find(
      (r) => paneAt(layout, r, false) === 'reasoning',
    )!;
    const next = reduceUi(ui, { type: 'wheel', lines: 3, row }, view);
    expect(next.scroll.reasoning.offset).toBe(3);
    expect(next.scroll.reply.offset).toBe(0);
    // Over the status line it does nothing.
    expect(reduceUi(ui, { type: 'wheel', lines: 3, row: 1 }, view)).toBe(ui);
  });

  test('the tool log selection moves by entries and Enter opens the selected call', () => {
    let ui: UiState = { ...initialUiState(), focus: 'tools' };
    const view = viewOf(ui, {}, ['a', 'b', 'c']);
    ui = reduceUi(ui, { type: 'scroll', by: 1 }, view);
    expect(ui.toolSel).toBe('c');
    ui = run(
      ui,
      view,
      { type: 'scroll', by: 1 },
      { type: 'scroll', by: 1 },
      { type: 'scroll', by: 1 },
    );
    expect(ui.toolSel).toBe('a');
    ui = reduceUi(ui, { type: 'expand' }, view);
    expect(ui).toMatchObject({ overlay: 'detail', detailId: 'a' });
    expect(reduceUi(initialUiState(), { type: 'expand' }, viewOf(ui)).overlay).toBe('none');
  });

  test('the tool log window: the tail, or the remembered top moved to keep the selection', () => {
    // Following the newest: the last `height` entries.
    expect(toolWindowStart(20, -1, 0, 5)).toBe(15);
    expect(toolWindowStart(3, -1, 0, 5)).toBe(0);
    // A selection inside the remembered window keeps it; one outside moves it just enough.
    expect(toolWindowStart(20, 7, 5, 5)).toBe(5);
    expect(toolWindowStart(20, 3, 5, 5)).toBe(3);
    expect(toolWindowStart(20, 12, 5, 5)).toBe(8);
    // A top past the tail (entries dropped, the pane grew) is the tail.
    expect(toolWindowStart(8, 6, 6, 5)).toBe(3);
    // The selection's moves remember the window the pane draws.
    const view = viewOf(
      initialUiState(),
      {},
      Array.from({ length: 20 }, (_, i) => `c${i}`),
    );
    let ui: UiState = { ...initialUiState(), focus: 'tools' };
    for (let i = 0; i < 9; i++) ui = reduceUi(ui, { type: 'scroll', by: 1 }, view);
    const sel = view.toolIds.indexOf(ui.toolSel!);
    expect(ui.toolTop).toBe(toolWindowStart(20, sel, ui.toolTop, view.layout.tools));
    expect(sel - ui.toolTop).toBeGreaterThanOrEqual(0);
  });

  test('focus moves among the panes on screen only', () => {
    const ui = initialUiState();
    const small = computeLayout({
      columns: 40,
      rows: 12,
      inputLines: 1,
      statusMessage: false,
      approval: false,
    });
    const view = { ...viewOf(ui), layout: small };
    expect(run(ui, view, { type: 'focusStep', step: 1 }).focus).toBe('reply');
    expect(
      run(ui, view, { type: 'focusStep', step: 1 }, { type: 'focusStep', step: 1 }).focus,
    ).toBe('input');
    expect(run(ui, viewOf(ui), { type: 'focusStep', step: -1 }).focus).toBe('tools');
  });

  test('sending clears the line, remembers it, and follows the conversation again', () => {
    let ui = run(initialUiState(), viewOf(initialUiState()), { type: 'type', text: 'hello' });
    ui = { ...ui, focus: 'reply' };
    ui = reduceUi(ui, { type: 'scroll', by: 5 }, viewOf(ui));
    ui = reduceUi(ui, { type: 'submitted', text: 'hello' }, viewOf(ui));
    expect(ui.line.value).toBe('');
    expect(ui.focus).toBe('input');
    expect(ui.scroll.reply.offset).toBe(0);
    expect(reduceUi(ui, { type: 'historyPrev' }, viewOf(ui)).line.value).toBe('hello');
  });

  test('Tab completion: one candidate completes, several extend to their common prefix', () => {
    let ui = run(initialUiState(), viewOf(initialUiState()), { type: 'type', text: '/p' });
    const view = viewOf(ui);
    expect(reduceUi(ui, { type: 'completed', found: ['/pause'] }, view).line.value).toBe('/pause ');
    ui = reduceUi(ui, { type: 'completed', found: ['/pause', '/persona'] }, view);
    expect(ui.line.value).toBe('/p');
    expect(ui.completions).toEqual(['/pause', '/persona']);
    expect(reduceUi(ui, { type: 'edit', edit: 'deleteBack' }, view).completions).toEqual([]);
  });

  test('an approval prompt closes any overlay; coming back opens the digest', () => {
    let ui = run(initialUiState(), viewOf(initialUiState()), { type: 'toggleLedger' });
    expect(ui.overlay).toBe('ledger');
    ui = reduceUi(ui, { type: 'approvalShown' }, viewOf(ui));
    expect(ui.overlay).toBe('none');
    ui = reduceUi(ui, { type: 'cameBack', since: 1, until: 2 }, viewOf(ui));
    expect(ui).toMatchObject({ overlay: 'away', away: { since: 1, until: 2 } });
  });
});

describe('the UI store', () => {
  test('tells its listeners of a change, and only of a change', () => {
    const store = createUiStore();
    let heard = 0;
    const stop = store.subscribe(() => heard++);
    const view = viewOf(store.getState());
    store.dispatch({ type: 'type', text: 'x' }, view);
    expect(store.getState().line.value).toBe('x');
    store.dispatch({ type: 'approvalShown' }, view);
    expect(heard).toBe(1);
    stop();
    store.dispatch({ type: 'type', text: 'y' }, view);
    expect(heard).toBe(1);
  });
});
