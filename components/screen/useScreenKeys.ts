/**
 * The screen's key handler: every key is resolved against the table (bindings.ts) with the
 * state of this moment, then carried out by `perform` as UI actions and agent calls. It also
 * notes Ctrl+C (for "press again to quit"), typing (which holds off the approval keys) and
 * the first key after an absence (which opens the "while you were away" digest).
 */
import { useRef } from 'react';
import { AWAY_AFTER_MS } from '../../src/ledger/digest.js';
import type { MachineState } from '../../src/machine/machine.js';
import type { AgentController } from '../controller.js';
import type { ApprovalGuard } from '../hooks/useApprovalGuard.js';
import { focusables, type Layout } from '../layout.js';
import {
  CTRL_C_EXIT_WINDOW_MS,
  isText,
  resolveKey,
  type KeyContext,
  type KeyPress,
} from '../keys/bindings.js';
import { perform } from '../keys/perform.js';
import { useKeys } from '../keys/useKeys.js';
import type { UiAction } from '../ui/uiReducer.js';
import type { UiStore } from '../ui/uiStore.js';
import { expandPastes, pastedLines, PASTE_MAX_LINES } from '../input/pastes.js';
import { t, type Lang } from '../../src/i18n/messages.js';

interface ScreenKeysDeps {
  controller: AgentController;
  ui: UiStore;
  /** The UI store's dispatch, measured against the last frame (useUiDispatch). */
  dispatch(action: UiAction): void;
  guard: ApprovalGuard;
  complete(prefix: string): string[];
  redraw(): void;
  toggleMouse(): void;
  /** The quit keys (see PerformDeps.quit). */
  quit(): void;
  /** Ctrl+D, /detach (see PerformDeps.detach). */
  detach?(): void;
  now(): number;
  /** The screen's language (a paste placeholder's words). */
  lang?: Lang;
}

/** A large paste's placeholder words: its lines, or for a long line its characters. */
function pasteWhat(lang: Lang, text: string): string {
  const lines = pastedLines(text);
  const n = (lines > PASTE_MAX_LINES ? lines : text.length).toLocaleString('en-US');
  return lines > PASTE_MAX_LINES
    ? t(lang, 'input.pasteLines', { n })
    : t(lang, 'input.pasteChars', { n });
}

function isBusy(controller: AgentController, machine: MachineState, streaming: boolean): boolean {
  return (
    controller.busy === true ||
    machine === 'THINKING' ||
    machine === 'AWAITING_APPROVAL' ||
    streaming
  );
}

/** What `resolveKey` needs, read now (a key may come before the next frame). */
export function keyContext(
  env: Pick<ScreenKeysDeps, 'controller' | 'ui' | 'guard'> & { layout: Layout },
): KeyContext {
  const s = env.controller.store.getState();
  const cur = env.ui.getState();
  const visible = focusables(env.layout);
  return {
    machine: s.machine,
    focus: visible.includes(cur.focus) ? cur.focus : 'input',
    overlay: cur.overlay,
    input: cur.line.value,
    busy: isBusy(env.controller, s.machine, s.streaming),
    exitArmed: cur.lastCtrlC !== undefined && Date.now() - cur.lastCtrlC < CTRL_C_EXIT_WINDOW_MS,
    approvalArmed: s.machine === 'AWAITING_APPROVAL' && env.guard.armed(s.approval?.id),
    queueLine: cur.queueLine,
    pasted: cur.pastes.length > 0,
  };
}

export function useScreenKeys(env: ScreenKeysDeps & { layout: Layout }): void {
  // The first key after AWAY_AFTER_MS without one opens the digest of what happened since.
  const lastKeyAt = useRef(env.now());
  const { dispatch } = env;
  const cameBack = (): boolean => {
    const now = env.now();
    const since = lastKeyAt.current;
    lastKeyAt.current = now;
    if (now - since < AWAY_AFTER_MS || env.ui.getState().overlay !== 'none') return false;
    if (env.controller.store.getState().machine === 'AWAITING_APPROVAL') return false;
    dispatch({ type: 'cameBack', since, until: now });
    return true;
  };
  useKeys((input: string, key: KeyPress) => {
    if (cameBack()) return;
    const resolved = resolveKey(input, key, keyContext(env));
    if (key.ctrl && input.toLowerCase() === 'c') dispatch({ type: 'ctrlC', at: Date.now() });
    // Typing (after this key was resolved) holds off the approval keys for a moment.
    if (isText(input, key) || key.backspace || key.delete) env.guard.typed();
    if (!resolved) return;
    perform(resolved, {
      controller: env.controller,
      dispatch,
      input: () => env.ui.getState().line.value,
      message: () => {
        const { line, pastes } = env.ui.getState();
        return expandPastes(line.value, pastes);
      },
      pasteWhat: (text) => pasteWhat(env.lang ?? 'en', text),
      editing: () => env.ui.getState().editing,
      complete: env.complete,
      redraw: env.redraw,
      toggleMouse: env.toggleMouse,
      quit: env.quit,
      ...(env.detach ? { detach: env.detach } : {}),
    });
  });
}
