/**
 * The tool-log entries older than those the store keeps, read back from the history while
 * the user browses the log (an entry selected) and only as far as they scrolled (`reach`).
 * Following the newest, nothing is read and nothing older is held.
 */
import { useMemo } from 'react';
import type { ToolLogEntry } from '../../src/api/events.js';
import type { HistoryMessage } from '../../src/core/messages.js';
import type { AgentStore } from '../../src/store/agentStore.js';
import { toolLogBefore } from '../../src/store/restoredView.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';

export interface OlderTools {
  /** Read back, oldest first, shown before the store's log. */
  entries: readonly ToolLogEntry[];
  /** How many more the history holds before those. */
  left: number;
}

const NONE: OlderTools = { entries: [], left: 0 };
const NO_MESSAGES: readonly HistoryMessage[] = [];

export function useOlderTools(store: AgentStore, browsing: boolean, reach: number): OlderTools {
  const messages = useThrottledStore(store, (s) => (browsing ? s.messages : NO_MESSAGES));
  const first = useThrottledStore(store, (s) => (browsing ? s.toolLog[0] : undefined));
  return useMemo(
    () => (browsing ? toolLogBefore(messages, first, reach) : NONE),
    [browsing, messages, first, reach],
  );
}
