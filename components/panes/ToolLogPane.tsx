import React from 'react';
import { Box } from 'ink';
import type { AgentStore } from '../../src/store/agentStore.js';
import { t } from '../../src/i18n/messages.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useLang } from '../i18n.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { Row } from './rows.js';
import { toolRow } from './toolRows.js';

interface ToolLogPaneProps {
  store: AgentStore;
  width: number;
  height: number;
  title: boolean;
  focused: boolean;
  /** The selected call's id; undefined follows the newest calls. */
  selected: string | undefined;
  /** First visible entry while one is selected. */
  top: number;
}

/**
 * One line per tool call, newest at the bottom; the selection is shown inverted. A running
 * call's spinner turns here, so its ticks re-render this pane only.
 */
export function ToolLogPane(p: ToolLogPaneProps): React.JSX.Element {
  const lang = useLang();
  const log = useThrottledStore(p.store, (s) => s.toolLog);
  const spinner = useSpinner(log.some((e) => e.status === 'running'));
  const selIdx = p.selected === undefined ? -1 : log.findIndex((e) => e.callId === p.selected);
  const h = Math.max(0, p.height);
  // Following the newest: the tail. With a selection: the remembered window, moved just
  // enough to keep the selection in view.
  let start = Math.max(0, log.length - h);
  if (selIdx !== -1) {
    start = Math.max(0, Math.min(p.top, start));
    if (selIdx < start) start = selIdx;
    if (selIdx >= start + h) start = selIdx - h + 1;
  }
  const rows: Row[] =
    log.length === 0
      ? [{ text: t(lang, 'tool.noCalls'), tone: 'dim' }]
      : log
          .slice(start, start + h)
          .map((e, i) => toolRow(e, p.width, p.focused && start + i === selIdx, spinner));
  const count = log.length > 0 ? `${selIdx === -1 ? log.length : selIdx + 1}/${log.length}` : '';
  return (
    <Box flexDirection="column" width={p.width}>
      {p.title && (
        <TitleRule
          title={t(lang, 'pane.tools')}
          width={p.width}
          focused={p.focused}
          right={count}
        />
      )}
      <PaneRows rows={rows} height={h} width={p.width} />
    </Box>
  );
}
