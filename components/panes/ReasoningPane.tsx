import React from 'react';
import { Box } from 'ink';
import type { AgentStore } from '../../src/store/agentStore.js';
import { t } from '../../src/i18n/messages.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useLang } from '../i18n.js';
import { sanitize } from '../text/sanitize.js';
import { wrapTail } from '../text/wrap.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { Row } from './rows.js';

export interface ReasoningPaneProps {
  store: AgentStore;
  width: number;
  height: number;
  title: boolean;
  focused: boolean;
  offset: number;
  spinner: string;
  onLimit?(maxOffset: number): void;
}

/** The model's reasoning, dim: the live one while it streams, else the last turn's. */
export function ReasoningPane(p: ReasoningPaneProps): React.JSX.Element {
  const lang = useLang();
  const live = useThrottledStore(p.store, (s) => s.liveReasoning);
  const last = useThrottledStore(p.store, (s) => s.lastReasoning);
  const text = sanitize(live || last).trim();
  const { rows: lines, complete } = wrapTail(text, p.width, p.height + p.offset);
  const maxOffset = complete ? Math.max(0, lines.length - p.height) : Infinity;
  p.onLimit?.(maxOffset);
  const offset = Math.min(p.offset, maxOffset);
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
          right={[live ? p.spinner : '', offset > 0 ? `↑${offset}` : ''].filter(Boolean).join(' ')}
        />
      )}
      <PaneRows rows={text ? rows : []} height={p.height} width={p.width} />
    </Box>
  );
}
