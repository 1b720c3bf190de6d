import React from 'react';
import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../src/agent/events.js';
import { t } from '../src/i18n/messages.js';
import { useLang } from './i18n.js';
import { sanitize } from './text/sanitize.js';
import { truncate } from './text/wrap.js';
import { TitleRule } from './panes/PaneRows.js';

export interface ApprovalPromptProps {
  request: ApprovalRequest;
  width: number;
  /** 4: title, call, reason, keys; 2: call and keys; 1: keys only. */
  height: number;
}

/** A tool call waiting for the user's yes / no / always. */
export function ApprovalPrompt({ request, width, height }: ApprovalPromptProps): React.JSX.Element {
  const lang = useLang();
  const call = truncate(`  ${sanitize(request.call).replace(/\s+/g, ' ')}`, width);
  const ask = truncate(t(lang, 'approval.prompt', { tool: request.tool }), width);
  return (
    <Box flexDirection="column" width={width}>
      {height >= 4 && (
        <TitleRule
          title={`⚠ ${t(lang, 'approval.title')}`}
          right={t(lang, 'approval.kind', { kind: request.kind })}
          width={width}
          focused
          color="yellow"
        />
      )}
      {height >= 2 && (
        <Text wrap="truncate-end" color="magenta">
          {call}
        </Text>
      )}
      {height >= 4 && (
        <Text wrap="truncate-end" dimColor>
          {truncate(`  ${t(lang, 'approval.reason', { reason: sanitize(request.reason) })}`, width)}
        </Text>
      )}
      <Text wrap="truncate-end" color="yellow" bold>
        {ask}
      </Text>
    </Box>
  );
}
