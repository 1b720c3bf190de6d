import React from 'react';
import { Box } from 'ink';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { PaneRows, TitleRule } from './PaneRows.js';
import type { PaneView } from './replyView.js';

/** The props the conversation and reasoning panes share: size, focus and what to draw. */
export interface ScrollPaneProps {
  /** The rows and position, computed at the top (useReplyView, useReasoningView). */
  view: PaneView;
  width: number;
  /** Body rows (the title takes one more when `title`). */
  height: number;
  title: boolean;
  focused: boolean;
}

type ReplyPaneProps = ScrollPaneProps;

/** The conversation, newest at the bottom: draws what useReplyView computed. */
export function ReplyPane(p: ReplyPaneProps): React.JSX.Element {
  const lang = useLang();
  return (
    <Box flexDirection="column" width={p.width}>
      {p.title && (
        <TitleRule
          title={t(lang, 'pane.conversation')}
          width={p.width}
          focused={p.focused}
          right={p.view.offset > 0 ? `↑${p.view.offset}` : ''}
        />
      )}
      <PaneRows rows={p.view.rows} height={p.height} width={p.width} />
    </Box>
  );
}
