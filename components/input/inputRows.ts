/**
 * The input box's rows as styled text, one string per screen row. The box draws exactly
 * these strings, and the keystroke echo (components/screen/useFastEcho.ts) paints the same
 * strings straight onto the terminal: one function, so the two can never disagree.
 */
import chalk from 'chalk';
import type { LineState } from './lineEditor.js';
import { layoutInput } from './inputLayout.js';
import { graphemes, truncate } from '../text/wrap.js';

const PROMPT = '› ';

export interface InputRowsProps {
  line: LineState;
  width: number;
  /** Rows available; the rows around the cursor are shown. */
  height: number;
  focused: boolean;
  placeholder: string;
}

/** Columns the text may use: the prompt before it, a column for the cursor after it. */
function inputWidth(width: number): number {
  return Math.max(1, width - PROMPT.length - 1);
}

/** Rows the text needs at this width (the layout gives the box up to a few). */
export function inputRowsNeeded(value: string, width: number): number {
  return layoutInput(value, 0, inputWidth(width)).rows.length;
}

/** The styled text of each row the box shows (at most `height`; fewer when the text is short). */
export function inputRowTexts(p: InputRowsProps): string[] {
  const inner = inputWidth(p.width);
  const prompt = (text: string): string => {
    // Ink's <Text color bold> order: the colour first, then the weight.
    return chalk.bold(p.focused ? chalk.cyan(text) : chalk.gray(text));
  };
  if (p.line.value === '') {
    const cursor = p.focused ? chalk.inverse(' ') : '';
    return [prompt(PROMPT) + cursor + chalk.dim(truncate(p.placeholder, inner))];
  }
  const { rows, cursorRow, cursorCol } = layoutInput(p.line.value, p.line.cursor, inner);
  const h = Math.max(1, p.height);
  const first = Math.max(0, Math.min(cursorRow - h + 1, rows.length - h));
  return rows.slice(first, first + h).map((r, i) => {
    const rowIndex = first + i;
    const head = prompt(rowIndex === 0 ? PROMPT : '  ');
    if (!p.focused || rowIndex !== cursorRow) return head + r.text;
    const before = r.text.slice(0, cursorCol);
    const rest = r.text.slice(cursorCol);
    const at = graphemes(rest)[0] ?? ' ';
    return head + before + chalk.inverse(at) + rest.slice(at.length);
  });
}
