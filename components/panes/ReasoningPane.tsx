import React, { useRef } from 'react';
import { Box } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useLang } from '../i18n.js';
import { GrowingWrap } from '../text/growingWrap.js';
import { sanitize } from '../text/sanitize.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { Row } from './rows.js';
import { useScrollAnchor, type ScrollPaneProps } from './scrollAnchor.js';

export type ReasoningPaneProps = ScrollPaneProps;

/** The model's reasoning, dim: the live one while it streams, else the last turn's. */
export function ReasoningPane(p: ReasoningPaneProps): React.JSX.Element {
  const lang = useLang();
  const live = useThrottledStore(p.store, (s) => s.liveReasoning);
  const last = useThrottledStore(p.store, (s) => s.lastReasoning);
  const text = sanitize(live || last).trim();
  // Reasoning grows at its end while it streams: wrap only what was added.
  const wrapper = useRef<GrowingWrap | undefined>(undefined);
  const wrapWidth = useRef(0);
  if (!wrapper.current || wrapWidth.current !== p.width) {
    wrapper.current = new GrowingWrap(p.width);
    wrapWidth.current = p.width;
  }
  const lines = wrapper.current.wrap(text);
  const maxOffset = Math.max(0, lines.length - p.height);
  const anchored = useScrollAnchor({
    offset: p.offset,
    mark: p.mark ?? 0,
    width: p.width,
    snapshot: () => ({ text, rows: lines.length }),
    grownSince: (s) => (text.startsWith(s.text) ? lines.length - s.rows : 0),
  });
  const offset = Math.min(anchored, maxOffset);
  p.onScrolled?.(offset, maxOffset);
  const end = lines.length - offset;
  const rows: Row[] = lines
    .slice(Math.max(0, end - p.height), end)
    .map((l) => ({ text: l, tone: 'reasoning' }));
  return (
    <Box flexDirection="column" width={p.width}>
      {p.title && (
        <TitleRule
          title={t(lang, 'pane.reasoning')}
          width={p.width}
          focused={p.focused}
          spinner={live !== ''}
          right={offset > 0 ? `↑${offset}` : ''}
        />
      )}
      <PaneRows rows={text ? rows : []} height={p.height} width={p.width} />
    </Box>
  );
}
