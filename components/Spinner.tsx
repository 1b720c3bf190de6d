import React from 'react';
import { Text } from 'ink';
import { useSpinner } from './hooks/useSpinner.js';

/**
 * A turning spinner as its own leaf: its timer re-renders this one `Text` and nothing around
 * it, so a pane showing a spinner in its title is not rebuilt ten times a second.
 */
export function Spinner({ color }: { color?: string | undefined }): React.JSX.Element {
  const frame = useSpinner(true);
  return <Text color={color}>{frame}</Text>;
}
