import React from 'react';
import { Box, Text } from 'ink';
import type { LineState } from './input/lineEditor.js';
import { layoutInput } from './input/inputLayout.js';
import { graphemes, truncate } from './text/wrap.js';

export interface InputBoxProps {
  line: LineState;
  width: number;
  /** Rows available; the rows around the cursor are shown. */
  height: number;
  focused: boolean;
  placeholder: string;
}

const PROMPT = '› ';

/** Rows the text needs at this width (the layout gives the box up to a few). */
export function inputRowsNeeded(value: string, width: number): number {
  return layoutInput(value, 0, Math.max(1, width - PROMPT.length - 1)).rows.length;
}

/** The message being typed, with a block cursor; pasted newlines stay as rows. */
export function InputBox(p: InputBoxProps): React.JSX.Element {
  const inner = Math.max(1, p.width - PROMPT.length - 1);
  const { rows, cursorRow, cursorCol } = layoutInput(p.line.value, p.line.cursor, inner);
  const h = Math.max(1, p.height);
  const first = Math.max(0, Math.min(cursorRow - h + 1, rows.length - h));
  const visible = rows.slice(first, first + h);
  const promptColor = p.focused ? 'cyan' : 'gray';

  if (p.line.value === '') {
    return (
      <Box width={p.width} height={h} flexDirection="column">
        <Text wrap="truncate-end">
          <Text color={promptColor} bold>
            {PROMPT}
          </Text>
          {p.focused && <Text inverse> </Text>}
          <Text dimColor>{truncate(p.placeholder, inner)}</Text>
        </Text>
      </Box>
    );
  }
  return (
    <Box width={p.width} height={h} flexDirection="column">
      {visible.map((r, i) => {
        const rowIndex = first + i;
        const prompt = rowIndex === 0 ? PROMPT : '  ';
        if (!p.focused || rowIndex !== cursorRow) {
          return (
            <Text key={rowIndex} wrap="truncate-end">
              <Text color={promptColor} bold>
                {prompt}
              </Text>
              {r.text}
            </Text>
          );
        }
        const before = r.text.slice(0, cursorCol);
        const rest = r.text.slice(cursorCol);
        const at = graphemes(rest)[0] ?? ' ';
        return (
          <Text key={rowIndex} wrap="truncate-end">
            <Text color={promptColor} bold>
              {prompt}
            </Text>
            {before}
            <Text inverse>{at}</Text>
            {rest.slice(at.length)}
          </Text>
        );
      })}
    </Box>
  );
}
