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
import { fieldView } from './fieldView.js';
import { resolveFieldKey } from './keys.js';

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
