import React from 'react';
import { Box, Text } from 'ink';
import type { MentionList as List } from './ui/uiState.js';
import { truncate } from './text/wrap.js';

export interface MentionListProps {
  list: List;
  width: number;
  /** Rows the layout gave it (the paths past them are not shown). */
  height: number;
}

/**
 * The `@` completion list under the input: one workspace path a row, the chosen one marked
 * and bold; folders end in `/`. Tab or Enter puts the chosen path in the line.
 */
export function MentionList({ list, width, height }: MentionListProps): React.JSX.Element {
  const shown = list.items.slice(0, Math.max(0, height));
  return (
    <Box flexDirection="column" width={width} height={shown.length}>
      {shown.map((item, i) => {
        const sel = i === list.sel;
        return (
          <Text
            key={item}
            wrap="truncate-end"
            color={sel ? 'cyan' : undefined}
            bold={sel}
            dimColor={!sel}
          >
            {truncate(`${sel ? '▸ ' : '  '}@${item}`, width)}
          </Text>
        );
      })}
    </Box>
  );
}
