/**
 * Typographic quotes as string quotes: models (and the text editors their training data came
 * from) write `read(“notes.md”)`. There is only one sensible reading, so it is taken.
 */
import { snippet } from './messages.js';
import type { ValueRead } from './valueRead.js';

/** Each typographic opening quote and the characters that may close it. */
export const TYPOGRAPHIC_CLOSERS: Readonly<Record<string, string>> = {
  '“': '”“',
  '„': '“”',
  '‘': '’',
  '「': '」',
  '『': '』',
};

/**
 * Reads the string opened by the typographic quote at `i`. It closes at the first closing
 * quote followed by `,` `)` or the end of the text (so `‘it’s’` keeps its apostrophe), else
 * at the first closing quote. The content is taken as written: no escapes.
 */
export function readTypographic(src: string, i: number, argN: number, limit: number): ValueRead {
  const closers = TYPOGRAPHIC_CLOSERS[src[i] ?? ''] ?? '';
  let first = -1;
  const stop = Math.min(limit, src.length);
  for (let j = i + 1; j < stop; j += 1) {
    if (!closers.includes(src[j] ?? '')) continue;
    if (first === -1) first = j;
    if (/^\s*(?:[,)]|$)/.test(src.slice(j + 1, j + 64))) return done(src, i, j);
  }
  if (first !== -1) return done(src, i, first);
  // No closing quote before the next [TOOL] (or the end): recover from the next landmark.
  return {
    ok: false,
    from: i + 1,
    error:
      `unterminated string in argument ${argN} (starts ${snippet(src.slice(i, i + 40))}): ` +
      `it has no closing quote. Quote strings with ASCII "double quotes".`,
  };
}

function done(src: string, i: number, close: number): ValueRead {
  return {
    ok: true,
    value: src.slice(i + 1, close),
    end: close + 1,
    isString: true,
    note: 'typographic quotes',
  };
}
