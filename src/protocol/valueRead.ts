/**
 * What reading one argument value gives: the lexer's answer, and that of the readers it hands
 * a form to (typographic quotes), in a file of its own so they need not import each other.
 */
import type { ToolArg } from '../tools/types.js';
import type { NamedArg } from './types.js';

export type ValueRead =
  | {
      ok: true;
      value: ToolArg;
      end: number;
      isString: boolean;
      error?: string;
      /** Given by name: `key=value` or `key: value`. */
      key?: string;
      /** A bare word, valid only where the tool takes a string (resolve.ts decides). */
      bare?: boolean;
      /** A JSON object: all the arguments, by name. */
      fields?: NamedArg[];
      /** A form other than the canonical one that was read, e.g. "typographic quotes". */
      note?: string;
    }
  | { ok: false; error: string; /** where recovery should start looking */ from: number };
