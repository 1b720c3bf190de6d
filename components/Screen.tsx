import React, { memo, useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { t } from '../src/i18n/messages.js';
import type { SessionChoice } from '../src/history/sessionChoices.js';
import type { MachineState } from '../src/machine/machine.js';
import type { AgentController } from './controller.js';
import { ApprovalPrompt } from './ApprovalPrompt.js';
import { InputBox, type InputBoxProps } from './InputBox.js';
import { inputTitle } from './input/queueTitle.js';
import { useStoreNow } from './hooks/useThrottledStore.js';
import { KeyHint } from './KeyHint.js';
import { MentionList } from './MentionList.js';
import { useMentionLookup } from './input/useMentionLookup.js';
import { StatusBar } from './StatusBar.js';
import { useApprovalGuard } from './hooks/useApprovalGuard.js';
import { useMouse } from './hooks/useMouse.js';
import { useLang } from './i18n.js';
import { APPROVAL_ARM_MS } from './keys/bindings.js';
import { focusables, inputTop, type Layout } from './layout.js';
import { TitleRule } from './panes/PaneRows.js';
import { ScreenPanes } from './screen/ScreenPanes.js';
import { useFastEcho, type DrawnInput } from './screen/useFastEcho.js';
import { NOTICE_TTL_MS, useAgentStatus } from './screen/useAgentStatus.js';
import { keyContext, useScreenKeys } from './screen/useScreenKeys.js';
import { useScreenView } from './screen/useScreenView.js';
import type { UiAction } from './ui/uiReducer.js';
import { initialUiState, type UiState } from './ui/uiState.js';
import { createUiStore, useUiDispatch, useUiState } from './ui/uiStore.js';

/** How long the blank frame of a Ctrl+L redraw lasts: longer than one Ink frame (~33 ms). */
const REDRAW_BLANK_MS = 50;

const Status = memo(StatusBar);
const Approval = memo(ApprovalPrompt);

export interface ScreenProps {
  controller: AgentController;
  columns: number;
  rows: number;
  workspace: string;
  complete(prefix: string): string[];
  /** Ctrl+L: clear the real terminal (the screen then writes its whole frame again). */
  onRedraw?(): void;
  /** The quit keys: the root's exit. */
  onExit(): void;
  /** Ctrl+D, /detach: the host leaves the agent running without this screen. */
  onDetach?(): void;
  /** Opens with the "while you were away" digest of this span (a screen attaching late). */
  away?: { since: number; until: number };
  /** How long a notice stays in the status bar (default 8 s; it stays in the conversation). */
  noticeTtlMs?: number;
  /** How long the approval prompt shows, with no typing, before y / n / a answer it (400 ms). */
  approvalDelayMs?: number;
  /** The clock for that delay (tests pass their own). */
  now?(): number;
  /** The `mouse` setting: the wheel scrolls the pane under the pointer (default on). */
  mouse?: boolean;
  /** Turns mouse reporting on or off in the terminal; `toggled` when Ctrl+S asked for it. */
  onMouse?(on: boolean, toggled: boolean): void;
  /**
   * This folder's sessions, for the picker `/resume` opens (the host reads them from the
   * home). Absent: `/resume` goes to the agent as typed.
   */
  listSessions?(): Promise<readonly SessionChoice[]>;
  /** Workspace paths for the `@` mention being typed (absent: no list; mentions still attach). */
  findPaths?(query: string): Promise<readonly string[]>;
  /** The `awayAfterMs` setting: a key after this long without one opens the digest (10 min). */
  awayAfterMs?: number;
}

function placeholderKey(machine: MachineState, queueing: boolean) {
  if (queueing) return 'input.placeholderQueue' as const;
  if (machine === 'THINKING') return 'input.placeholderThinking' as const;
  if (machine === 'PAUSED') return 'input.placeholderPaused' as const;
  return 'input.placeholder' as const;
}

/**
 * The whole screen at a given size: status, panes (or an overlay), approval, input, hints.
 * Data flows one way: keys → the UI reducer or the agent → the stores → this frame, whose
 * layout and pane rows are computed here, at the top, and passed down.
 */
export function Screen(p: ScreenProps): React.JSX.Element {
  const lang = useLang();
  const { controller } = p;
  const store = controller.store;
  const [uiStore] = useState(() =>
    createUiStore(
      p.away ? { ...initialUiState(), overlay: 'away', away: p.away } : initialUiState(),
    ),
  );
  const ui = useUiState(uiStore);
  const status = useAgentStatus(store, ui.lastCtrlC, p.noticeTtlMs ?? NOTICE_TTL_MS, lang);
  const { machine, approval } = status;
  const queued = useStoreNow(store, (s) => s.queued);
  const frame = { columns: p.columns, rows: p.rows, statusMessage: status.message !== undefined };
  const view = useScreenView(store, ui, { ...frame, approval }, lang, p.complete);
  const { layout } = view;
  const focus = focusables(layout).includes(ui.focus) ? ui.focus : 'input';
  const guard = useApprovalGuard(
    approval?.id,
    p.approvalDelayMs ?? APPROVAL_ARM_MS,
    p.now ?? Date.now,
  );

  const dispatch = useUiDispatch(uiStore, view.ui);
  useApprovalTakesFloor(approval?.id, dispatch);
  useBlankFrame(ui.blank, dispatch);
  useMentionLookup(ui.line, ui.mentionClosed, p.findPaths, dispatch);
  const mouse = useMouse(p.mouse ?? true, p.onMouse);
  useScreenKeys({
    controller,
    ui: uiStore,
    dispatch,
    guard,
    complete: p.complete,
    redraw: () => {
      p.onRedraw?.();
      dispatch({ type: 'blank', on: true });
    },
    toggleMouse: mouse.toggle,
    quit: p.onExit,
    ...(p.onDetach ? { detach: p.onDetach } : {}),
    ...(p.listSessions ? { listSessions: p.listSessions } : {}),
    now: p.now ?? Date.now,
    ...(p.awayAfterMs !== undefined ? { awayAfterMs: p.awayAfterMs } : {}),
    lang,
    layout,
  });

  const w = layout.width;
  const input = {
    line: ui.line,
    width: w,
    height: layout.input,
    focused: focus === 'input',
    placeholder: t(lang, placeholderKey(machine, ui.queueLine !== 'closed')),
  };
  useFastEcho(uiStore, layout.input > 0 && !ui.blank ? drawnInput(input, layout, ui) : undefined);

  if (ui.blank) return <Text> </Text>;
  // The hint line names the approval keys whether or not they are armed yet.
  const hints = { ...keyContext({ controller, ui: uiStore, layout, guard }), machine, focus };
  return (
    <Box flexDirection="column" width={w} height={layout.height} overflow="hidden">
      {layout.status > 0 && (
        <Status
          store={store}
          width={w}
          workspace={p.workspace}
          message={layout.status > 1 ? status.message : undefined}
        />
      )}
      <ScreenPanes store={store} view={view} ui={ui} focus={focus} />
      {approval && (
        <Approval request={approval} width={w} height={layout.approval} {...view.card} />
      )}
      {layout.inputRule && (
        <TitleRule
          title={inputTitle(lang, ui.queueLine, ui.editing, queued)}
          width={w}
          focused={focus === 'input'}
        />
      )}
      {layout.input > 0 && <InputBox {...input} />}
      {layout.mentions > 0 && ui.mention && (
        <MentionList list={ui.mention} width={w} height={layout.mentions} />
      )}
      {layout.hint && (
        <KeyHint
          context={{ ...hints, approvalArmed: true }}
          width={w}
          completions={ui.completions}
        />
      )}
    </Box>
  );
}

/** The input box as this frame draws it, for the keystroke echo. */
function drawnInput(input: InputBoxProps, layout: Layout, ui: UiState): DrawnInput {
  return { ...input, top: inputTop(layout), focus: ui.focus, overlay: ui.overlay };
}

/**
 * A tool call waiting for approval takes the floor: overlays close so y / n / a reach it,
 * and each new card starts at its first line.
 */
function useApprovalTakesFloor(id: number | undefined, dispatch: (a: UiAction) => void): void {
  useEffect(() => {
    if (id !== undefined) dispatch({ type: 'approvalShown' });
  }, [id, dispatch]);
}

/** Ends Ctrl+L's blank frame after REDRAW_BLANK_MS (so Ink writes the whole frame again). */
function useBlankFrame(blank: boolean, dispatch: (a: UiAction) => void): void {
  useEffect(() => {
    if (!blank) return;
    const id = setTimeout(() => dispatch({ type: 'blank', on: false }), REDRAW_BLANK_MS);
    return () => clearTimeout(id);
  }, [blank, dispatch]);
}
