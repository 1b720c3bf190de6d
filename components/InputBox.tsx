import React from 'react';
import { Box, Text } from 'ink';
import { inputRowTexts, type InputRowsProps } from './input/inputRows.js';

export type InputBoxProps = InputRowsProps;

/**
 * The message being typed, with a block cursor; pasted newlines stay as rows. The rows are
 * styled text from `inputRowTexts`, which the keystroke echo paints with too.
 */
export function InputBox(p: InputBoxProps): React.JSX.Element {
  const rows = inputRowTexts(p);
  return (
    <Box width={p.width} height={Math.max(1, p.height)} flexDirection="column">
      {rows.map((text, i) => (
        <Text key={i} wrap="truncate-end">
          {text}
        </Text>
      ))}
    </Box>
  );
}
