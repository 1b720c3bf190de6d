import React, { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { AwayDigest } from './AwayDigest.js';
import { LedgerOverlay } from './LedgerOverlay.js';
import { AWAY_AFTER_MS, buildDigest } from '../src/ledger/digest.js';
import { Box, Text } from 'ink';
import { t } from '../src/i18n/messages.js';
import type { MachineState } from '../src/machine/machine.js';
import type { Notice } from '../src/store/reducer.js';
import type { AgentController } from './controller.js';
import { ApprovalPrompt } from './ApprovalPrompt.js';
import { HelpOverlay } from './HelpOverlay.js';
import { InputBox, inputRowsNeeded } from './InputBox.js';
import { KeyHint } from './KeyHint.js';
import { StatusBar, type StatusMessage } from './StatusBar.js';
import { ToolDetail } from './ToolDetail.js';
import { useApprovalGuard } from './hooks/useApprovalGuard.js';
import { useFresh } from './hooks/useFresh.js';
import { useThrottledStore } from './hooks/useThrottledStore.js';
import { useLang } from './i18n.js';
import {
  APPROVAL_ARM_MS,
  CTRL_C_EXIT_WINDOW_MS,
  isText,
  resolveKey,
  type KeyContext,
  type KeyPress,
} from './keys/bindings.js';
import { perform } from './keys/perform.js';
import { useKeys } from './keys/useKeys.js';
import { useMouse } from './hooks/useMouse.js';
import { computeLayout, focusables, type Layout } from './layout.js';
import { TitleRule } from './panes/PaneRows.js';
import { ReasoningPane } from './panes/ReasoningPane.js';
import { ReplyPane } from './panes/ReplyPane.js';
import { ToolLogPane } from './panes/ToolLogPane.js';
import type { Tone } from './panes/rows.js';
import { firstLine } from './text/sanitize.js';
import { initialUiState, type Scroller, type UiState } from './ui/uiState.js';

/** How long a notice stays in the status bar (it stays in the conversation). */
export const NOTICE_TTL_MS = 8000;
/** How long the blank frame of a Ctrl+L redraw lasts: longer than one Ink frame (~33 ms). */
const REDRAW_BLANK_MS = 50;

export interface ScreenProps {
  controller: AgentController;
  columns: number;
  rows: number;
  workspace: string;
  complete(prefix: string): string[];
  /** Ctrl+L: clear the real terminal (the screen then writes its whole frame again). */
  onRedraw?(): void;
  /** How long a notice stays in the status bar. */
  noticeTtlMs?: number;
  /** How long the approval prompt shows, with no typing, before keys answer it. */
  approvalDelayMs?: number;
  /** The clock for that delay (tests pass their own). */
  now?(): number;
  /** The `mouse` setting: the wheel scrolls the pane under the pointer (default on). */
  mouse?: boolean;
  /** Turns mouse reporting on or off in the terminal; `toggled` when Ctrl+S asked for it. */
  onMouse?(on: boolean, toggled: boolean): void;
}

const NOTICE_TONE: Record<Notice['level'], Tone> = { info: 'notice', warn: 'warn', error: 'error' };

/**
 * The UI state lives in a ref (so key events that arrive before the next render see the
 * latest copy) and a counter re-renders on change.
 */
function useUiState(): [UiState, () => UiState, (next: UiState) => void] {
  const ref = useRef<UiState>(initialUiState());
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const get = useCallback(() => ref.current, []);
  const set = useCallback((next: UiState) => {
    if (next === ref.current) return;
    ref.current = next;
    bump();
  }, []);
  return [ref.current, get, set];
}

function isBusy(controller: AgentController, machine: MachineState, streaming: boolean): boolean {
  return (
    controller.busy === true ||
    machine === 'THINKING' ||
    machine === 'AWAITING_APPROVAL' ||
    streaming
  );
}

/** The whole screen at a given size: status, panes (or an overlay), approval, input, hints. */
export function Screen(p: ScreenProps): React.JSX.Element {
  const lang = useLang();
  const { controller } = p;
  const store = controller.store;
  const [ui, getUi, setUi] = useUiState();

  const machine = useThrottledStore(store, (s) => s.machine);
  const approval = useThrottledStore(store, (s) => s.approval);
  const pauseReason = useThrottledStore(store, (s) => s.pauseReason);
  const lastNotice = useThrottledStore(store, (s) => s.notices[s.notices.length - 1]);
  const armed = useFresh(ui.lastCtrlC, CTRL_C_EXIT_WINDOW_MS);
  const noticeFresh = useFresh(lastNotice?.at, p.noticeTtlMs ?? NOTICE_TTL_MS);

  const message: StatusMessage | undefined = armed
    ? { text: t(lang, 'quit.again'), tone: 'warn' }
    : machine === 'PAUSED' && pauseReason
      ? { text: pauseReason, tone: 'warn' }
      : noticeFresh && lastNotice
        ? { text: firstLine(lastNotice.text), tone: NOTICE_TONE[lastNotice.level] }
        : undefined;
  const showApproval = approval !== undefined && machine === 'AWAITING_APPROVAL';
  const layout: Layout = computeLayout({
    columns: p.columns,
    rows: p.rows,
    inputLines: inputRowsNeeded(ui.line.value, p.columns),
    statusMessage: message !== undefined,
    approval: showApproval,
    approvalDetailLines: detailLineCount(approval?.detail),
  });
  const visible = focusables(layout);
  const focus = visible.includes(ui.focus) ? ui.focus : 'input';
  const limits = useRef<Record<Scroller, number>>({
    reply: Infinity,
    reasoning: Infinity,
    help: 0,
    detail: 0,
  });
  // Where the conversation and reasoning show their view now (it stays on the same content
  // while rows arrive below), for the scroll keys to start from.
  const offsets = useRef<Partial<Record<Scroller, number>>>({});
  // The panes report where they are through these (made once, not on every render).
  const report = useMemo(() => {
    const scrolled = (which: Scroller) => (offset: number, max: number) => {
      offsets.current[which] = offset;
      limits.current[which] = max;
    };
    const limit = (which: Scroller) => (max: number) => {
      limits.current[which] = max;
    };
    return {
      reply: scrolled('reply'),
      reasoning: scrolled('reasoning'),
      help: limit('help'),
      detail: limit('detail'),
    };
  }, []);
  const guard = useApprovalGuard(
    showApproval ? approval?.id : undefined,
    p.approvalDelayMs ?? APPROVAL_ARM_MS,
    p.now ?? Date.now,
  );

  const keyContext = (): KeyContext => {
    const s = store.getState();
    const cur = getUi();
    return {
      machine: s.machine,
      focus: visible.includes(cur.focus) ? cur.focus : 'input',
      overlay: cur.overlay,
      input: cur.line.value,
      busy: isBusy(controller, s.machine, s.streaming),
      exitArmed: cur.lastCtrlC !== undefined && Date.now() - cur.lastCtrlC < CTRL_C_EXIT_WINDOW_MS,
      approvalArmed: s.machine === 'AWAITING_APPROVAL' && guard.armed(s.approval?.id),
    };
  };

  // A tool call waiting for approval takes the floor: overlays close so y / n / a reach it.
  useEffect(() => {
    if (showApproval && getUi().overlay !== 'none') setUi({ ...getUi(), overlay: 'none' });
  }, [showApproval, getUi, setUi]);

  const redraw = (): void => {
    p.onRedraw?.();
    setUi({ ...getUi(), blank: true });
  };
  useEffect(() => {
    if (!ui.blank) return;
    const id = setTimeout(() => setUi({ ...getUi(), blank: false }), REDRAW_BLANK_MS);
    return () => clearTimeout(id);
  }, [ui.blank, getUi, setUi]);

  // The first key after AWAY_AFTER_MS without one opens the digest of what happened since.
  const lastKeyAt = useRef((p.now ?? Date.now)());
  const cameBack = (): boolean => {
    const now = (p.now ?? Date.now)();
    const since = lastKeyAt.current;
    lastKeyAt.current = now;
    if (now - since < AWAY_AFTER_MS || getUi().overlay !== 'none') return false;
    if (store.getState().machine === 'AWAITING_APPROVAL') return false;
    setUi({ ...getUi(), overlay: 'away', awaySince: since });
    return true;
  };

  const mouse = useMouse(p.mouse ?? true, p.onMouse);
  useKeys((input: string, key: KeyPress) => {
    if (cameBack()) return;
    const ctx = keyContext();
    const resolved = resolveKey(input, key, ctx);
    if (key.ctrl && input.toLowerCase() === 'c') setUi({ ...getUi(), lastCtrlC: Date.now() });
    // Typing (after this key was resolved) holds off the approval keys for a moment.
    if (isText(input, key) || key.backspace || key.delete) guard.typed();
    if (!resolved) return;
    perform(resolved, {
      controller,
      get: getUi,
      set: setUi,
      layout,
      limits: limits.current,
      offsets: offsets.current,
      focusables: visible,
      complete: p.complete,
      redraw,
      toggleMouse: mouse.toggle,
    });
  });

  if (ui.blank) return <Text> </Text>;

  const w = layout.width;
  // The hint line names the approval keys whether or not they are armed yet.
  const ctx: KeyContext = { ...keyContext(), machine, focus, approvalArmed: true };
  const placeholder = t(
    lang,
    machine === 'THINKING'
      ? 'input.placeholderThinking'
      : machine === 'PAUSED'
        ? 'input.placeholderPaused'
        : 'input.placeholder',
  );
  return (
    <Box flexDirection="column" width={w} height={layout.height} overflow="hidden">
      {layout.status > 0 && (
        <StatusBar
          store={store}
          width={w}
          workspace={p.workspace}
          message={layout.status > 1 ? message : undefined}
        />
      )}
      {ui.overlay === 'help' && layout.panes > 0 && (
        <HelpOverlay
          width={w}
          height={layout.panes}
          offset={ui.scroll.help}
          commands={p.complete('')}
          onLimit={report.help}
        />
      )}
      {ui.overlay === 'ledger' && layout.panes > 0 && (
        <LedgerOverlay store={store} width={w} height={layout.panes} />
      )}
      {ui.overlay === 'away' && layout.panes > 0 && (
        <AwayDigest
          digest={buildDigest(store.getState().ledger, ui.awaySince ?? 0, lastKeyAt.current)}
          width={w}
          height={layout.panes}
        />
      )}
      {ui.overlay === 'detail' && layout.panes > 0 && (
        <ToolDetail
          store={store}
          callId={ui.detailId}
          width={w}
          height={layout.panes}
          offset={ui.scroll.detail}
          onLimit={report.detail}
        />
      )}
      {ui.overlay === 'none' && layout.reasoning > 0 && (
        <ReasoningPane
          store={store}
          width={w}
          height={layout.reasoning}
          title={layout.titles}
          focused={focus === 'reasoning'}
          offset={ui.scroll.reasoning}
          mark={ui.scrollMark.reasoning}
          onScrolled={report.reasoning}
        />
      )}
      {ui.overlay === 'none' && layout.reply > 0 && (
        <ReplyPane
          store={store}
          width={w}
          height={layout.reply}
          title={layout.titles}
          focused={focus === 'reply'}
          offset={ui.scroll.reply}
          mark={ui.scrollMark.reply}
          onScrolled={report.reply}
        />
      )}
      {ui.overlay === 'none' && layout.tools > 0 && (
        <ToolLogPane
          store={store}
          width={w}
          height={layout.tools}
          title={layout.titles}
          focused={focus === 'tools'}
          selected={ui.toolSel}
          top={ui.toolTop}
        />
      )}
      {showApproval && approval && (
        <ApprovalPrompt request={approval} width={w} height={layout.approval} />
      )}
      {layout.inputRule && (
        <TitleRule title={t(lang, 'pane.input')} width={w} focused={focus === 'input'} />
      )}
      {layout.input > 0 && (
        <InputBox
          line={ui.line}
          width={w}
          height={layout.input}
          focused={focus === 'input'}
          placeholder={placeholder}
        />
      )}
      {layout.hint && <KeyHint context={ctx} width={w} completions={ui.completions} />}
    </Box>
  );
}

/** How many lines an approval's detail has (0 without one). */
function detailLineCount(detail: string | undefined): number {
  return detail === undefined ? 0 : detail.split('\n').length;
}
