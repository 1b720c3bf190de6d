/**
 * The screen's frame, computed top-down: the layout from the window size and what has to be
 * shown, then each pane's rows and scroll position for its share of the rows. The same
 * measurements go to the panes (to draw) and to the key reducer (to scroll from), so no pane
 * ever reports anything back up.
 */
import { useMemo } from 'react';
import type { ApprovalRequest } from '../../src/api/events.js';
import type { Lang } from '../../src/i18n/messages.js';
import { approvalRows, cardWindow } from '../approval/cardRows.js';
import type { AgentStore } from '../../src/store/agentStore.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { inputRowsNeeded } from '../input/inputRows.js';
import { computeLayout, type Layout } from '../layout.js';
import { useOverlayRows, type OverlayRows } from '../overlayView.js';
import { useReasoningView, type ReasoningView } from '../panes/reasoningView.js';
import { useReplyView, type PaneView } from '../panes/replyView.js';
import { useToolLogView, type ToolLogView } from '../panes/toolLogView.js';
import { useOlderTools } from '../panes/olderTools.js';
import type { Row } from '../panes/rows.js';
import type { ScrollView, UiView } from '../ui/uiReducer.js';
import type { Scroller, UiState } from '../ui/uiState.js';

export interface ScreenView {
  layout: Layout;
  reply: PaneView;
  reasoning: ReasoningView;
  tools: ToolLogView;
  /** The open scrolling overlay's rows, and the window of them shown. */
  overlay: (OverlayRows & { offset: number; max: number }) | undefined;
  /** The approval card's rows and the first one shown, while a call waits. */
  card: { rows: readonly Row[]; offset: number } | undefined;
  /** What the key reducer measures against. */
  ui: UiView;
}

interface FrameInput {
  columns: number;
  rows: number;
  /** The status bar has a second line to show. */
  statusMessage: boolean;
  /** The approval on screen, when one is (undefined: none). */
  approval: ApprovalRequest | undefined;
}

export function useScreenView(
  store: AgentStore,
  ui: UiState,
  frame: FrameInput,
  lang: Lang,
  complete: (prefix: string) => readonly string[],
): ScreenView {
  const { approval } = frame;
  const cardWidth = Math.max(1, Math.floor(frame.columns));
  const cardRows = useMemo(
    () => approval && approvalRows(approval, cardWidth, lang),
    [approval, cardWidth, lang],
  );
  const layout = computeLayout({
    columns: frame.columns,
    rows: frame.rows,
    inputLines: inputRowsNeeded(ui.line.value, frame.columns),
    statusMessage: frame.statusMessage,
    approval: approval !== undefined,
    approvalRows: cardRows?.length ?? 0,
    mentionRows: ui.mention?.items.length ?? 0,
  });
  const w = layout.width;
  const reply = useReplyView(store, { width: w, height: layout.reply }, ui.scroll.reply, lang);
  const reasoning = useReasoningView(
    store,
    { width: w, height: layout.reasoning },
    ui.scroll.reasoning,
  );
  const browsing = ui.toolSel !== undefined;
  const older = useOlderTools(store, browsing, browsing ? ui.toolReach : 0);
  const tools = useToolLogView(store, layout.tools, ui.toolSel, ui.toolTop, older.entries);
  const open = useOverlayRows(store, ui, w, lang, complete);
  const keptIds = useThrottledStore(store, (s) => s.toolLog.map((e) => e.callId), sameIds);
  const toolIds = useMemo(
    () =>
      older.entries.length > 0 ? [...older.entries.map((e) => e.callId), ...keptIds] : keptIds,
    [older.entries, keptIds],
  );
  const body = Math.max(0, layout.panes - 1);
  const max = open ? Math.max(0, open.rows.length - body) : 0;
  const offset = Math.min(overlayOffset(ui), max);
  // One object while nothing in it changes, so the overlay is not drawn again for every key.
  const overlay = useMemo(() => open && { ...open, offset, max }, [open, offset, max]);

  const at = (which: Scroller, shown: number, limit: number): ScrollView => ({
    shown,
    max: limit,
    mark: ui.scroll[which].mark,
  });
  const onOverlay = (which: 'help' | 'detail'): ScrollView =>
    ui.overlay === which && overlay ? at(which, overlay.offset, max) : at(which, 0, 0);
  const win = cardWindow(cardRows?.length ?? 0, layout.approval, ui.scroll.card.offset);
  const card = useMemo(
    () => cardRows && { rows: cardRows, offset: win.start },
    [cardRows, win.start],
  );
  const view: UiView = {
    layout,
    toolIds,
    toolOlder: older.left,
    scroll: {
      reply: at('reply', reply.offset, reply.max),
      reasoning: at('reasoning', reasoning.offset, reasoning.max),
      help: onOverlay('help'),
      detail: onOverlay('detail'),
      card: at('card', win.start, win.max),
    },
  };
  return { layout, reply, reasoning, tools, overlay, card, ui: view };
}

function overlayOffset(ui: UiState): number {
  return ui.overlay === 'help' ? ui.scroll.help.offset : ui.scroll.detail.offset;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
