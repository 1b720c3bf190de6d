/**
 * Reads one argument value of a tool call: a quoted string, a number, or true/false/null;
 * also what models write instead when its meaning is clear: `name=value`, a JSON object of
 * all the arguments, typographic quotes, a bare word (kept for resolve.ts to judge).
 *
 * Errors come in two strengths. A *recoverable* error (bad escape, `True`, a huge number)
 * still yields a value and an end, so the call parser can carry on to `[/TOOL]` and report
 * the whole call as one malformed item. A *fatal* error (unterminated string, a backtick
 * where a value should be) leaves the structure unknown, so the parser must recover by
 * looking for the next landmark.
 */
import { readJsonObject } from './jsonArgs.js';
import { describeChar, snippet } from './messages.js';
import { readTypographic, TYPOGRAPHIC_CLOSERS } from './typographic.js';
import type { ValueRead } from './valueRead.js';

const BACKSLASH = 0x5c;

type StringRead =
  { ok: true; value: string; end: number; badEscape?: string } | { ok: false; end: number };

/**
 * Reads the quoted string whose opening quote is at `i`. Escapes: `\" \' \\ \n \t \r
 * \uXXXX \u{X…}`; any other backslash pair is kept as written, so `C:\dir` and `\d+` survive.
 */
export function readString(src: string, i: number): StringRead {
  const quote = src.charCodeAt(i);
  let out = '';
  let chunk = i + 1;
  let j = i + 1;
  let badEscape: string | undefined;
  while (j < src.length) {
    const c = src.charCodeAt(j);
    if (c === quote) {
      out += src.slice(chunk, j);
      return badEscape === undefined
        ? { ok: true, value: out, end: j + 1 }
        : { ok: true, value: out, end: j + 1, badEscape };
    }
    if (c !== BACKSLASH) {
      j += 1;
      continue;
    }
    out += src.slice(chunk, j);
    const e = src[j + 1];
    if (e === undefined) break;
    j += 2;
    switch (e) {
      case '"':
      case "'":
      case '\\':
        out += e;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'u': {
        const u = readUnicodeEscape(src, j);
        if (u === undefined) {
          badEscape ??= '\\u' + src.slice(j, j + 4).split(/["'\s]/)[0];
          out += '\\u';
        } else {
          out += u.text;
          j = u.end;
        }
        break;
      }
      default:
        out += '\\' + e;
    }
    chunk = j;
  }
  return { ok: false, end: src.length };
}

/** Decodes the hex part of a `\u` escape starting at `i` (just after the `u`). */
function readUnicodeEscape(src: string, i: number): { text: string; end: number } | undefined {
  const four = /^[0-9a-fA-F]{4}/.exec(src.slice(i, i + 4));
  if (four) return { text: String.fromCharCode(parseInt(four[0], 16)), end: i + 4 };
  const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(i, i + 9));
  if (braced?.[1] !== undefined) {
    const cp = parseInt(braced[1], 16);
    if (cp <= 0x10ffff) return { text: String.fromCodePoint(cp), end: i + braced[0].length };
  }
  return undefined;
}

const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
/** A bare word: what a model writes when it forgets quotes. Stops at structure characters. */
const WORD = /[^\s,()"'`[\]{}=]+/y;
const WRONG_CASE_LITERALS = new Set(['true', 'false', 'null', 'none', 'nil', 'undefined']);

function matchAt(re: RegExp, src: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(src)?.[0];
}

/**
 * Reads argument number `argN` (1-based, for messages) starting at `i`. `allowNamed` is
 * false for the value after `name=`, so `a=a=a=…` cannot recurse without bound.
 */
export function readValue(
  src: string,
  i: number,
  argN: number,
  allowNamed = true,
  /** Where a JSON object or typographic string must end by (the next `[TOOL]`): bounds scans. */
  jsonLimit = src.length,
): ValueRead {
  const c = src[i] ?? '';
  if (c === '"' || c === "'") return readStringValue(src, i, argN);
  if (TYPOGRAPHIC_CLOSERS[c] !== undefined) return readTypographic(src, i, argN, jsonLimit);
  if (c === '{' && allowNamed) {
    const obj = readJsonObject(src, i, argN, jsonLimit);
    if (!obj.ok) return obj;
    return { ok: true, value: null, end: obj.end, isString: false, fields: obj.fields };
  }
  if (c === '`') {
    return {
      ok: false,
      from: i,
      error: `argument ${argN} is quoted with backticks: use "double" or 'single' quotes for strings.`,
    };
  }
  if (c === '[' || c === '{') {
    // An array anywhere, or an object after `name=` (one level of naming only).
    return {
      ok: false,
      from: i,
      error:
        `argument ${argN} starts with ${c}: arrays and objects are not supported. ` +
        `Pass them as a quoted JSON string, e.g. '["a", "b"]'.`,
    };
  }
  if (/[-.0-9]/.test(c)) return readNumberValue(src, i, argN);
  const word = matchAt(WORD, src, i);
  if (word === undefined) {
    return {
      ok: false,
      from: i,
      error:
        `unexpected ${describeChar(src, i)} where argument ${argN} should start. ` +
        `Arguments are "quoted strings", numbers, true, false or null.`,
    };
  }
  return readWordValue(src, i, word, argN, allowNamed);
}

function readStringValue(src: string, i: number, argN: number): ValueRead {
  const s = readString(src, i);
  const q = src[i] ?? '"';
  if (!s.ok) {
    return {
      ok: false,
      from: i + 1,
      error:
        `unterminated string in argument ${argN} (starts ${snippet(src.slice(i, i + 40))}): ` +
        `it has no closing ${q}. End it with ${q}, and write \\${q} for a ${q} inside the string.`,
    };
  }
  if (s.badEscape === undefined) return { ok: true, value: s.value, end: s.end, isString: true };
  return {
    ok: true,
    value: s.value,
    end: s.end,
    isString: true,
    error:
      `bad escape ${s.badEscape} in argument ${argN}: \\u needs exactly 4 hex digits, ` +
      `like \\u00e9 (or \\u{1F600}). For a literal backslash write \\\\.`,
  };
}

function readNumberValue(src: string, i: number, argN: number): ValueRead {
  const num = matchAt(NUMBER, src, i);
  const word = matchAt(WORD, src, i) ?? src[i] ?? '';
  if (num !== undefined && num.length === word.length) {
    const value = Number(num);
    if (Number.isFinite(value)) return { ok: true, value, end: i + num.length, isString: false };
    return {
      ok: true,
      value: null,
      end: i + num.length,
      isString: false,
      error: `argument ${argN} (${num}) is too large for a number. Quote it as text: "${num}".`,
    };
  }
  // `./notes.md`, `12px`: a bare word (resolve.ts accepts it where the tool takes a string).
  return { ok: true, value: word, end: i + word.length, isString: false, bare: true };
}

function readWordValue(
  src: string,
  i: number,
  word: string,
  argN: number,
  allowNamed: boolean,
): ValueRead {
  const end = i + word.length;
  if (word === 'true' || word === 'false') {
    return { ok: true, value: word === 'true', end, isString: false };
  }
  if (word === 'null') return { ok: true, value: null, end, isString: false };
  if (WRONG_CASE_LITERALS.has(word.toLowerCase())) {
    return {
      ok: true,
      value: word,
      end,
      isString: false,
      error:
        `argument ${argN} is ${word}: write true, false or null in lowercase, ` +
        `or quote it as text: "${word}".`,
    };
  }
  const named = allowNamed ? namedArgument(src, i, word, argN) : undefined;
  if (named !== undefined) return named;
  // Kept as a string for now: resolve.ts accepts it where the tool takes a string.
  return { ok: true, value: word, end, isString: false, bare: true };
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `path="a"` or `path: "a"`: the value after the name, with the name as its key. The tool's
 * parameter names place it (resolve.ts). Undefined when the word is not followed by = or :.
 */
function namedArgument(src: string, i: number, word: string, argN: number): ValueRead | undefined {
  let j = i + word.length;
  while (/\s/.test(src[j] ?? '')) j += 1;
  const colon = word.endsWith(':') && word.length > 1;
  if (!colon && src[j] !== '=') return undefined;
  if (!colon) j += 1;
  while (/\s/.test(src[j] ?? '')) j += 1;
  const name = colon ? word.slice(0, -1) : word;
  const next = src[j];
  if (!KEY.test(name) || next === undefined || /[,)[]/.test(next)) {
    return {
      ok: false,
      from: j,
      error:
        `argument ${argN} is named (${name}${colon ? ':' : '='}…) but has no value: write ` +
        `name="value", or pass values in order, e.g. name("value", 2).`,
    };
  }
  const inner = readValue(src, j, argN, false);
  return inner.ok ? { ...inner, key: name } : inner;
}
