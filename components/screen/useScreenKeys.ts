/**
 * The screen's key handler: every key is resolved against the table (bindings.ts) with the
 * state of this moment, then carried out by `perform` as UI actions and agent calls. It also
 * notes Ctrl+C (for "press again to quit"), typing (which holds off the approval keys) and
 * the first key after an absence (which opens the "while you were away" digest).
 */
import { useRef } from 'react';
import { AWAY_AFTER_MS } from '../../src/ledger/digest.js';
import type { SessionChoice } from '../../src/history/sessionChoices.js';
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
  /** This folder's sessions for the `/resume` picker (see PerformDeps.listSessions). */
  listSessions?(): Promise<readonly SessionChoice[]>;
  now(): number;
  /** The screen's language (a paste placeholder's words). */
  lang?: Lang;
  /** The absence after which a key opens the digest (default AWAY_AFTER_MS, 10 minutes). */
  awayAfterMs?: number;
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
    mention: cur.mention !== undefined,
  };
}

export function useScreenKeys(env: ScreenKeysDeps & { layout: Layout }): void {
  // The first key after AWAY_AFTER_MS without one opens the digest of what happened since.
  const lastKeyAt = useRef(env.now());
  const { dispatch } = env;
  /** The absence this key ends, when it should open the digest (it is not opened yet). */
  const cameBack = (): { since: number; until: number } | undefined => {
    const now = env.now();
    const since = lastKeyAt.current;
    lastKeyAt.current = now;
    if (now - since < (env.awayAfterMs ?? AWAY_AFTER_MS) || env.ui.getState().overlay !== 'none')
      return undefined;
    if (env.controller.store.getState().machine === 'AWAITING_APPROVAL') return undefined;
    return { since, until: now };
  };
  useKeys((input: string, key: KeyPress) => {
    // No key is ever lost to the digest (issue 33: "rate limit please" arrived as "te limit
    // please"): the key that opens it does its own job too, typing goes on into the input
    // under it, and any other key but Esc closes it and then does its own job.
    const away = cameBack();
    const typing = isText(input, key) || key.backspace === true || key.delete === true;
    const underDigest = env.ui.getState().overlay === 'away';
    if (underDigest && !typing && !key.escape) dispatch({ type: 'closeOverlay' });
    const ctx = keyContext(env);
    const resolved = resolveKey(
      input,
      key,
      underDigest && typing ? { ...ctx, overlay: 'none' } : ctx,
    );
    if (key.ctrl && input.toLowerCase() === 'c') dispatch({ type: 'ctrlC', at: Date.now() });
    // Typing (after this key was resolved) holds off the approval keys for a moment.
    if (typing) env.guard.typed();
    if (resolved) {
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
        ...(env.listSessions ? { listSessions: env.listSessions } : {}),
        picked: () => {
          const p = env.ui.getState().picker;
          return env.ui.getState().overlay === 'sessions' ? p?.choices[p.sel]?.id : undefined;
        },
      });
    }
    // Opened after the key did its job, and only if that job opened nothing else.
    if (away && env.ui.getState().overlay === 'none') dispatch({ type: 'cameBack', ...away });
  });
}
