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
  /** 4 or more: title, call, reason, detail rows, keys; 2: call and keys; 1: keys only. */
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
      {detailRows(request.detail, height - 4, width, (count) =>
        t(lang, 'approval.moreLines', { count }),
      ).map((line, i) => (
        <Text key={i} wrap="truncate-end" color="cyan">
          {line}
        </Text>
      ))}
      <Text wrap="truncate-end" color="yellow" bold>
        {ask}
      </Text>
    </Box>
  );
}

/**
 * The detail (exact content to be written, the command to be run) in at most `rows` rows,
 * each cut to the width; when it does not fit, the last row says how much is not shown.
 */
function detailRows(
  detail: string | undefined,
  rows: number,
  width: number,
  more: (count: number) => string,
): string[] {
  if (detail === undefined || rows <= 0) return [];
  const lines = sanitize(detail).split('\n');
  const fit = lines.length <= rows ? lines : lines.slice(0, rows - 1);
  const out = fit.map((line) => truncate(`  │ ${line}`, width));
  if (fit.length < lines.length) {
    out.push(truncate(`  │ ${more(lines.length - fit.length)}`, width));
  }
  return out;
}
