import React from 'react';
import { Box } from 'ink';
import type { AgentStore } from '../src/store/agentStore.js';
import { t } from '../src/i18n/messages.js';
import { useThrottledStore } from './hooks/useThrottledStore.js';
import { useLang } from './i18n.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import { detailRows, detailTitle } from './panes/toolRows.js';

export interface ToolDetailProps {
  store: AgentStore;
  callId: string | undefined;
  width: number;
  /** Rows in all, title included. */
  height: number;
  /** Rows scrolled down from the top. */
  offset: number;
  onLimit?(maxOffset: number): void;
}

/** One tool call in full: the call, every argument, and the whole result. Esc closes it. */
export function ToolDetail(p: ToolDetailProps): React.JSX.Element {
  const lang = useLang();
  const entry = useThrottledStore(p.store, (s) => s.toolLog.find((e) => e.callId === p.callId));
  const body = Math.max(0, p.height - 1);
  const rows = entry
    ? detailRows(entry, p.width, lang)
    : [{ text: t(lang, 'tool.noCalls'), tone: 'dim' as const }];
  const max = Math.max(0, rows.length - body);
  p.onLimit?.(max);
  const off = Math.min(p.offset, max);
  const more = max > 0 ? `${off}/${max} ↕` : '';
  return (
    <Box flexDirection="column" width={p.width}>
      <TitleRule
        title={entry ? detailTitle(entry, lang) : t(lang, 'pane.tools')}
        width={p.width}
        focused
        right={more}
      />
      <PaneRows rows={rows.slice(off, off + body)} height={body} width={p.width} />
    </Box>
  );
}
