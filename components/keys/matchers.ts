/** Small predicates over (input, key) for the binding table. */
import type { Key } from 'ink';
import type { KeyPress, Matcher } from './types.js';

/** Ctrl+letter (Ink reports the letter as the input). */
export const ctrl =
  (c: string): Matcher =>
  (i, k) =>
    !!k.ctrl && i.toLowerCase() === c;

/** A plain character, either case, without Ctrl or Alt (a pasted one is text, not a key). */
export const char =
  (c: string): Matcher =>
  (i, k) =>
    !k.ctrl && !k.meta && !k.paste && i.toLowerCase() === c;

const flag =
  (name: keyof Key): Matcher =>
  (_i, k) =>
    !!k[name] && !k.ctrl;

export const up = flag('upArrow');
export const down = flag('downArrow');
export const left = flag('leftArrow');
export const right = flag('rightArrow');
export const pgUp = flag('pageUp');
export const pgDn = flag('pageDown');
export const home = flag('home');
export const end = flag('end');
export const esc = flag('escape');
export const enter: Matcher = (_i, k) => !!k.return && !k.meta;
/** Alt+Enter, or Ctrl+J (a lone line feed). */
export const altEnter: Matcher = (i, k) => (!!k.return && !!k.meta) || (i === '\n' && !k.return);
export const tab: Matcher = (_i, k) => !!k.tab && !k.shift;
export const shiftTab: Matcher = (_i, k) => !!k.tab && !!k.shift;
export const f1: Matcher = (_i, k) => !!k.f1;
/** Terminals send DEL (0x7f) for Backspace, which Ink calls "delete". */
export const backspace: Matcher = (_i, k) => !!k.backspace || !!k.delete;
export const anyKey: Matcher = (_i, k) => !k.wheel;
export const wheelUp: Matcher = (_i, k) => k.wheel === 'up';
export const wheelDown: Matcher = (_i, k) => k.wheel === 'down';

export const either =
  (...ms: Matcher[]): Matcher =>
  (i, k) =>
    ms.some((m) => m(i, k));

/**
 * Text to type: one printable character, or a pasted text, which may hold newlines. Control
 * keys, Alt combinations and lone escapes are not text.
 */
export function isText(input: string, key: KeyPress): boolean {
  if (input === '' || key.ctrl || key.meta || key.return || key.escape || key.tab) return false;
  if (key.backspace || key.delete) return false;
  if (input.length === 1) return input >= ' ' && input !== '\x7f';
  // eslint-disable-next-line no-control-regex
  return !input.includes('\x1b') && /[^\x00-\x1f\x7f]/.test(input);
}
