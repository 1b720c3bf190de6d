/**
 * What the tool-log pane shows, computed at the top of the screen (like replyView.ts): the
 * window of entries for the pane's height and the selection, and the count for its title.
 * The window is `toolWindowStart`'s, the same function the key reducer moves the selection
 * with; the pane only draws the result (and turns the spinner of a running call).
 */
import { useMemo } from 'react';
import type { ToolLogEntry } from '../../src/api/events.js';
import type { AgentStore } from '../../src/store/agentStore.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { toolWindowStart } from '../ui/uiState.js';

export interface ToolLogView {
  /** The entries on screen, oldest first. */
  entries: readonly ToolLogEntry[];
  /** The selected entry's place in `entries`; -1: none (following the newest, or scrolled off). */
  selected: number;
  /** `selected/all` for the title (the newest when nothing is selected); empty with no calls. */
  count: string;
  /** A call is running: the pane turns its spinner. */
  running: boolean;
}

export function useToolLogView(
  store: AgentStore,
  height: number,
  /** The selected call's id; undefined follows the newest calls. */
  selected: string | undefined,
  /** The first entry shown while one is selected. */
  top: number,
  /** Entries read back from the history, shown before the store's log (see `useOlderTools`). */
  older: readonly ToolLogEntry[] = [],
): ToolLogView {
  const kept = useThrottledStore(store, (s) => s.toolLog);
  const log = useMemo(() => (older.length > 0 ? [...older, ...kept] : kept), [older, kept]);
  return useMemo(() => {
    const sel = selected === undefined ? -1 : log.findIndex((e) => e.callId === selected);
    const h = Math.max(0, height);
    const start = toolWindowStart(log.length, sel, top, h);
    return {
      entries: log.slice(start, start + h),
      selected: sel === -1 ? -1 : sel - start,
      count: log.length > 0 ? `${sel === -1 ? log.length : sel + 1}/${log.length}` : '',
      running: log.some((e) => e.status === 'running'),
    };
  }, [log, height, selected, top]);
}
