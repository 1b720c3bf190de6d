/**
 * What the reasoning pane shows, computed at the top of the screen (like replyView.ts): the
 * live reasoning while it streams, else the last turn's, wrapped a delta at a time.
 */
import { useMemo, useRef } from 'react';
import type { AgentStore } from '../../src/store/agentStore.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { GrowingWrap } from '../text/growingWrap.js';
import { sanitize } from '../text/sanitize.js';
import type { ScrollPos } from '../ui/uiState.js';
import type { PaneView } from './replyView.js';
import { useScrollAnchor } from './scrollAnchor.js';

export interface ReasoningView extends PaneView {
  /** Reasoning is streaming now (its title shows a spinner). */
  live: boolean;
}

export function useReasoningView(
  store: AgentStore,
  size: { width: number; height: number },
  pos: ScrollPos,
): ReasoningView {
  const { width, height } = size;
  const liveText = useThrottledStore(store, (s) => s.liveReasoning);
  const last = useThrottledStore(store, (s) => s.lastReasoning);
  const text = sanitize(liveText || last).trim();
  // Reasoning grows at its end while it streams: wrap only what was added.
  const wrapper = useRef<{ wrap: GrowingWrap; width: number } | undefined>(undefined);
  if (wrapper.current?.width !== width) wrapper.current = { wrap: new GrowingWrap(width), width };
  const lines = wrapper.current.wrap.wrap(text);
  const max = Math.max(0, lines.length - height);
  const anchored = useScrollAnchor({
    offset: pos.offset,
    mark: pos.mark,
    width,
    snapshot: () => ({ text, rows: lines.length }),
    grownSince: (s) => (text.startsWith(s.text) ? lines.length - s.rows : 0),
  });
  const offset = Math.min(anchored, max);
  const live = liveText !== '';
  return useMemo(() => {
    const end = lines.length - offset;
    const shown = text ? lines.slice(Math.max(0, end - height), end) : [];
    return { rows: shown.map((l) => ({ text: l, tone: 'reasoning' as const })), offset, max, live };
  }, [lines, text, offset, height, max, live]);
}
