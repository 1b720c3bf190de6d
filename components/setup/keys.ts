/**
 * The wizard's keys as tables, one per kind of widget, so the hint line and the handlers
 * read the same data. Ctrl+C quits from any step (nothing has been written, so nothing is
 * lost); Esc always means "back".
 */
import type { MessageKey } from '../../src/i18n/messages.js';
import type { KeyPress, Matcher } from '../keys/types.js';
import {
  backspace,
  ctrl,
  down,
  either,
  end,
  enter,
  esc,
  home,
  isText,
  left,
  pgDn,
  pgUp,
  right,
  up,
} from '../keys/matchers.js';

/** What a key does in a text field. */
type FieldAction =
  'submit' | 'back' | 'deleteBack' | 'clear' | 'left' | 'right' | 'start' | 'end' | 'type';
/** What a key does in a list. */
type ListAction = 'submit' | 'back' | 'up' | 'down' | 'pageUp' | 'pageDown' | 'deleteBack' | 'type';

interface Binding<A> {
  match: Matcher;
  action: A;
}

/** Quits the wizard from any step. */
export const quitKey: Matcher = ctrl('c');

const FIELD_KEYS: readonly Binding<FieldAction>[] = [
  { match: enter, action: 'submit' },
  { match: esc, action: 'back' },
  { match: backspace, action: 'deleteBack' },
  { match: ctrl('u'), action: 'clear' },
  { match: either(left, ctrl('b')), action: 'left' },
  { match: either(right, ctrl('f')), action: 'right' },
  { match: either(home, ctrl('a')), action: 'start' },
  { match: either(end, ctrl('e')), action: 'end' },
  { match: isText, action: 'type' },
];

const LIST_KEYS: readonly Binding<ListAction>[] = [
  { match: enter, action: 'submit' },
  { match: esc, action: 'back' },
  { match: either(up, ctrl('p')), action: 'up' },
  { match: either(down, ctrl('n')), action: 'down' },
  { match: pgUp, action: 'pageUp' },
  { match: pgDn, action: 'pageDown' },
  { match: backspace, action: 'deleteBack' },
  { match: isText, action: 'type' },
];

function resolve<A>(table: readonly Binding<A>[], input: string, key: KeyPress): A | undefined {
  if (quitKey(input, key)) return undefined;
  return table.find((b) => b.match(input, key))?.action;
}

/** The text-field action for a key (Ctrl+C is the root's, never a field's). */
export const resolveFieldKey = (input: string, key: KeyPress): FieldAction | undefined =>
  resolve(FIELD_KEYS, input, key);

/** The list action for a key (Ctrl+C is the root's, never a list's). */
export const resolveListKey = (input: string, key: KeyPress): ListAction | undefined =>
  resolve(LIST_KEYS, input, key);

/** One hint: the key as printed, and what it does. */
interface Hint {
  keys: string;
  label: MessageKey;
}

/** The hint lines, per widget; the last two are the same everywhere. */
const COMMON: Hint[] = [
  { keys: 'Esc', label: 'hint.back' },
  { keys: 'Ctrl+C', label: 'hint.quit' },
];
/** The key hints shown under each kind of step. */
export const HINTS = {
  field: [
    { keys: 'Enter', label: 'hint.next' },
    { keys: 'Ctrl+U', label: 'hint.clear' },
    ...COMMON,
  ],
  list: [
    { keys: '↑↓', label: 'hint.select' },
    { keys: 'Enter', label: 'hint.next' },
    { keys: 'a-z', label: 'hint.filter' },
    ...COMMON,
  ],
  continue: [{ keys: 'Enter', label: 'hint.next' }, ...COMMON],
  retry: [{ keys: 'Enter', label: 'hint.retry' }, ...COMMON],
  save: [{ keys: 'Enter', label: 'hint.save' }, ...COMMON],
  wait: COMMON,
} as const satisfies Record<string, readonly Hint[]>;

export type HintSet = keyof typeof HINTS;
