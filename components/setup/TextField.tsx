import React, { useReducer, useRef } from 'react';
import { Text } from 'ink';
import {
  deleteBack,
  insert,
  left,
  lineEnd,
  lineStart,
  right,
  setValue,
  type LineState,
} from '../input/lineEditor.js';
import { useStepKeys } from './useStepKeys.js';
import { resolveFieldKey } from './keys.js';
import { displayWidth, graphemes, truncate } from '../text/wrap.js';

/** How a one-line field shows its value in a given width: masked or not, cursor kept visible. */
const MASK_CHAR = '•';

interface FieldView {
  before: string;
  /** The character under the cursor (a space at the end of the value). */
  at: string;
  after: string;
}

/**
 * Splits the shown text around the cursor. With `mask`, every character is shown as a bullet
 * (the secret itself never reaches the frame). When the text is wider than `width`, the
 * start is cut (marked with …) so the cursor stays in view.
 */
function fieldView(value: string, cursor: number, mask: boolean, width: number): FieldView {
  const before = graphemes(value.slice(0, cursor));
  const rest = graphemes(value.slice(cursor));
  const show = (gs: string[]): string[] => (mask ? gs.map(() => MASK_CHAR) : gs);
  let b = show(before);
  const at = show(rest.slice(0, 1))[0] ?? ' ';
  const room = Math.max(2, width);
  if (displayWidth(b.join('')) + displayWidth(at) > room) {
    while (b.length > 0 && displayWidth(b.join('')) + displayWidth(at) + 1 > room) b = b.slice(1);
    b = ['…', ...b];
  }
  const used = displayWidth(b.join('')) + displayWidth(at);
  const after = truncate(show(rest.slice(1)).join(''), Math.max(0, room - used));
  return { before: b.join(''), at, after };
}

interface TextFieldProps {
  initial: string;
  /** Show bullets instead of the characters (the API key). */
  mask?: boolean;
  width: number;
  onSubmit(value: string): void;
  onBack(): void;
  /** Every edit (steps clear their error message on it). */
  onChange?(value: string): void;
  /** False while the step is busy (checking a folder): keys are ignored. */
  active?: boolean;
}

const PROMPT = '› ';

/**
 * A one-line input. Its state lives in a ref, so keys arriving faster than renders (a
 * paste split in chunks, a test typing) each see the previous key's result.
 */
export function TextField(p: TextFieldProps): React.JSX.Element {
  const line = useRef<LineState>(setValue(p.initial));
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const set = (next: LineState): void => {
    if (next === line.current) return;
    const changed = next.value !== line.current.value;
    line.current = next;
    rerender();
    if (changed) p.onChange?.(next.value);
  };

  useStepKeys((input, key) => {
    const s = line.current;
    switch (resolveFieldKey(input, key)) {
      case 'submit':
        return p.onSubmit(s.value);
      case 'back':
        return p.onBack();
      case 'deleteBack':
        return set(deleteBack(s));
      case 'clear':
        return set(setValue(''));
      case 'left':
        return set(left(s));
      case 'right':
        return set(right(s));
      case 'start':
        return set(lineStart(s));
      case 'end':
        return set(lineEnd(s));
      case 'type':
        // One line only: a pasted newline would otherwise end up inside the value.
        return set(insert(s, input.replace(/[\r\n]+/g, '')));
      default:
        return;
    }
  }, p.active !== false);

  const v = fieldView(line.current.value, line.current.cursor, p.mask === true, p.width - 2);
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{PROMPT}</Text>
      {v.before}
      <Text inverse>{v.at}</Text>
      {v.after}
    </Text>
  );
}
