/**
 * What the screen reads from the agent's store for its own frame (the panes read theirs):
 * the machine state, a waiting approval, and the status bar's second line.
 */
import { useEffect, useMemo, useState } from 'react';
import { t, type Lang } from '../../src/i18n/messages.js';
import type { MachineState } from '../../src/machine/machine.js';
import type { AgentStore, AgentStoreState } from '../../src/store/agentStore.js';
import type { Notice } from '../../src/store/reducer.js';
import { useStoreNow, useThrottledStore } from '../hooks/useThrottledStore.js';
import { CTRL_C_EXIT_WINDOW_MS } from '../keys/bindings.js';
import type { Tone } from '../panes/rows.js';
import type { StatusMessage } from '../StatusBar.js';
import { firstLine } from '../text/sanitize.js';

/**
 * Whether something that happened at `at` (epoch ms) is still within `ttlMs`; re-renders
 * once when it expires, so a notice in the status bar goes away by itself.
 */
function useFresh(at: number | undefined, ttlMs: number): boolean {
  const [, bump] = useState(0);
  const fresh = at !== undefined && at + ttlMs > Date.now();
  useEffect(() => {
    if (!fresh || at === undefined) return;
    // Measured now, not at render: an effect that runs late (a busy machine) still
    // re-renders, at once if the time is already up, so a frame drawn fresh never sticks.
    const left = Math.max(0, at + ttlMs - Date.now());
    const id = setTimeout(() => bump((n) => n + 1), left + 5);
    return () => clearTimeout(id);
  }, [at, ttlMs, fresh]);
  return fresh;
}

/** How long a notice stays in the status bar (it stays in the conversation). */
export const NOTICE_TTL_MS = 8000;

const NOTICE_TONE: Record<Notice['level'], Tone> = { info: 'notice', warn: 'warn', error: 'error' };

interface AgentStatus {
  machine: MachineState;
  /** The approval waiting for an answer, when its prompt is on screen. */
  approval: AgentStoreState['approval'];
  /** The status bar's second line: "press again to quit", the pause reason, a fresh notice. */
  message: StatusMessage | undefined;
}

export function useAgentStatus(
  store: AgentStore,
  lastCtrlC: number | undefined,
  noticeTtlMs: number,
  lang: Lang,
): AgentStatus {
  // At once, not at the frame's end: the hints and the placeholder follow the state in the
  // very frame that shows the key that changed it (an interrupt mid-stream).
  const machine = useStoreNow(store, (s) => s.machine);
  const approval = useThrottledStore(store, (s) => s.approval);
  const pauseReason = useThrottledStore(store, (s) => s.pauseReason);
  const lastNotice = useThrottledStore(store, (s) => s.notices[s.notices.length - 1]);
  const armed = useFresh(lastCtrlC, CTRL_C_EXIT_WINDOW_MS);
  const noticeFresh = useFresh(lastNotice?.at, noticeTtlMs);
  // One object per change, so the status bar is not drawn again for every key.
  const message = useMemo((): StatusMessage | undefined => {
    if (armed) return { text: t(lang, 'quit.again'), tone: 'warn' };
    if (machine === 'PAUSED' && pauseReason) return { text: pauseReason, tone: 'warn' };
    if (noticeFresh && lastNotice)
      return { text: firstLine(lastNotice.text), tone: NOTICE_TONE[lastNotice.level] };
    return undefined;
  }, [armed, machine, pauseReason, noticeFresh, lastNotice, lang]);
  const shown = approval !== undefined && machine === 'AWAITING_APPROVAL' ? approval : undefined;
  return { machine, approval: shown, message };
}
