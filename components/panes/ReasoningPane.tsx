import React from 'react';
import { Box } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { ScrollPaneProps } from './ReplyPane.js';
import type { ReasoningView } from './reasoningView.js';

interface ReasoningPaneProps extends ScrollPaneProps {
  view: ReasoningView;
}

/** The model's reasoning, dim: draws what useReasoningView computed. */
export function ReasoningPane(p: ReasoningPaneProps): React.JSX.Element {
  const lang = useLang();
  return (
    <Box flexDirection="column" width={p.width}>
      {p.title && (
        <TitleRule
          title={t(lang, 'pane.reasoning')}
          width={p.width}
          focused={p.focused}
          spinner={p.view.live}
          right={p.view.offset > 0 ? `↑${p.view.offset}` : ''}
        />
      )}
      <PaneRows rows={p.view.rows} height={p.height} width={p.width} />
    </Box>
  );
}
