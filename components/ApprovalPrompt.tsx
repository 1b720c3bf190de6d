import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../src/api/events.js';
import { t } from '../src/i18n/messages.js';
import { useLang } from './i18n.js';
import { approvalRows, cardWindow } from './approval/cardRows.js';
import type { Row } from './panes/rows.js';
import { PaneRows, TitleRule } from './panes/PaneRows.js';
import { truncate } from './text/wrap.js';

export interface ApprovalPromptProps {
  request: ApprovalRequest;
  width: number;
  /** 4 or more: title, content rows, keys; 2: one row and keys; 1: keys only. */
  height: number;
  /** The card's rows (approvalRows), when the screen has already computed them. */
  rows?: readonly Row[];
  /** Rows scrolled down from the top (the card clamps it). */
  offset?: number;
}

/**
 * A tool call waiting for the user's yes / no / always. Everything it asks about is in its
 * rows, wrapped; the card shows a window of them, and when they do not fit it says which
 * lines are shown and how to see the rest (PgDn, ↓), never that anything is shown elsewhere.
 */
export function ApprovalPrompt(p: ApprovalPromptProps): React.JSX.Element {
  const lang = useLang();
  const { request, width, height } = p;
  const computed = useMemo(
    () => p.rows ?? approvalRows(request, width, lang),
    [p.rows, request, width, lang],
  );
  const win = cardWindow(computed.length, height, p.offset ?? 0);
  const shown = computed.slice(win.start, win.start + win.body);
  const ask = truncate(t(lang, 'approval.prompt', { tool: request.tool }), width);
  const position = t(lang, 'approval.position', {
    from: win.start + 1,
    to: win.start + shown.length,
    total: computed.length,
  });
  return (
    <Box flexDirection="column" width={width}>
      {win.title && (
        <TitleRule
          title={`⚠ ${t(lang, 'approval.title')}`}
          right={t(lang, 'approval.kind', { kind: request.kind })}
          width={width}
          focused
          color="yellow"
        />
      )}
      {win.body > 0 && <PaneRows rows={shown} height={win.body} width={width} />}
      {win.position && (
        <Text wrap="truncate-end" color="yellow" dimColor>
          {truncate(`  ${position}`, width)}
        </Text>
      )}
      <Text wrap="truncate-end" color="yellow" bold>
        {ask}
      </Text>
    </Box>
  );
}
