import React from 'react';
import { Box } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { useLang } from '../i18n.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { Row } from './rows.js';
import type { ToolLogView } from './toolLogView.js';
import { toolRow } from './toolRows.js';

interface ToolLogPaneProps {
  /** The window and selection, computed at the top (useToolLogView). */
  view: ToolLogView;
  width: number;
  height: number;
  title: boolean;
  focused: boolean;
}

/**
 * One line per tool call, newest at the bottom; the selection is shown inverted. A running
 * call's spinner turns here, so its ticks re-render this pane only.
 */
export function ToolLogPane(p: ToolLogPaneProps): React.JSX.Element {
  const lang = useLang();
  const { entries, selected, count, running } = p.view;
  const spinner = useSpinner(running);
  const rows: Row[] =
    count === ''
      ? [{ text: t(lang, 'tool.noCalls'), tone: 'dim' }]
      : entries.map((e, i) => toolRow(e, p.width, p.focused && i === selected, spinner));
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
      <PaneRows rows={rows} height={Math.max(0, p.height)} width={p.width} />
    </Box>
  );
}
