import React from 'react';
import { Box, Text } from 'ink';
import type { Row, Tone } from './rows.js';
import { displayWidth, truncate } from '../text/wrap.js';

const STYLE: Record<
  Tone,
  { color?: string; dimColor?: boolean; bold?: boolean; inverse?: boolean; italic?: boolean }
> = {
  plain: {},
  user: { color: 'cyan' },
  agent: {},
  call: { color: 'magenta' },
  dim: { dimColor: true },
  reasoning: { dimColor: true, italic: true },
  notice: { color: 'blue' },
  warn: { color: 'yellow' },
  error: { color: 'red' },
  ok: { color: 'green' },
  label: { bold: true },
  selected: { inverse: true },
};

/** Exactly `height` rows (padded with blanks), each cut to `width` columns. */
export function PaneRows({
  rows,
  height,
  width,
}: {
  rows: readonly Row[];
  height: number;
  width: number;
}): React.JSX.Element {
  const shown = rows.slice(0, height);
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {shown.map((r, i) => (
        <Text key={i} wrap="truncate-end" {...STYLE[r.tone]}>
          {r.text === '' ? ' ' : truncate(r.text, width)}
        </Text>
      ))}
    </Box>
  );
}

/**
 * A pane's title as a rule: `── Conversation ──────── ↑12 ──`. The focused pane's rule is
 * heavy and bright; `right` is a small note at the end (scroll position, a spinner).
 */
export function TitleRule({
  title,
  width,
  focused,
  right = '',
  color,
}: {
  title: string;
  width: number;
  focused: boolean;
  right?: string;
  color?: string;
}): React.JSX.Element {
  // The focused pane's rule is heavy, so focus shows without colour too.
  const line = focused ? '━' : '─';
  const head = `${line}${line} ${title} `;
  const tail = right ? ` ${right} ${line}${line}` : '';
  const fill = Math.max(0, width - displayWidth(head) - displayWidth(tail));
  const text = truncate(head + line.repeat(fill) + tail, width);
  return (
    <Text wrap="truncate-end" bold={focused} color={color ?? (focused ? 'cyan' : 'gray')}>
      {text}
    </Text>
  );
}
