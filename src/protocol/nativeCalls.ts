/**
 * The native tool-call formats of popular open models, read where they appear in plain text.
 * A model told about `[TOOL] name(…) [/TOOL]` still falls back to the format it was trained
 * on, and believes it made a call; passing that as text would leave it waiting for nothing.
 *
 * - Qwen 2.5/3, Hermes: `<tool_call>{"name": "read", "arguments": {…}}</tool_call>`
 * - Llama 3.x: `<|python_tag|>{"name": "read", "parameters": {…}}`, the same JSON alone, or
 *   `<function=read>{…}</function>`; Llama 3.2's `[read(path="a.md"), ls()]` alone on a line
 * - Mistral: `[TOOL_CALLS] [{"name": "read", "arguments": {…}}]`, `[TOOL_CALLS]read[ARGS]{…}`,
 *   or the bare JSON array when the tag token is not printed
 * - DeepSeek V3/R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read
 *   ```json {…} ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`
 * - a `[TOOL_CALL] … [/TOOL_CALL]` tag around a protocol call or JSON
 *
 * A form that opens but cannot be read becomes a malformed item whose error shows the
 * canonical call it seems to mean: a near miss is never silent.
 */
import { readCall } from './callParser.js';
import { callsFromJson, guessName, isCallShape } from './jsonCalls.js';
import { isPlainObject, namedFromObject, parseJson, scanJsonEnd } from './jsonArgs.js';
import { located, malformed, spread, type FoundCall, type NativeParse } from './nativeItems.js';
import type { ReplyIndex } from './replyIndex.js';

export type { NativeParse } from './nativeItems.js';

interface Form {
  label: string;
  open: RegExp;
  /** The closing tag; optional in the reply (a model may stop right after the call). */
  close?: RegExp;
  /** The block names the tool itself (`<function=read>`): the body is the arguments. */
  named?: boolean;
}

const FORMS: readonly Form[] = [
  { label: 'a <tool_call> block (Qwen/Hermes)', open: /<tool_call>/iy, close: /<\/tool_call>/gi },
  {
    label: 'a <function=…> block (Llama)',
    open: /<function=([A-Za-z_][\w.-]*)>/iy,
    close: /<\/function>/gi,
    named: true,
  },
  { label: 'a <|python_tag|> call (Llama)', open: /<\|python_tag\|>/y, close: /<\|eo[mt]_id\|>/g },
  {
    label: 'a [TOOL_CALLS] block (Mistral)',
    open: /\[TOOL_CALLS\]/iy,
    close: /\[\/TOOL_CALLS\]/gi,
  },
  { label: 'a [TOOL_CALL] block', open: /\[TOOL_CALL\]/iy, close: /\[\/TOOL_CALL\]/gi },
];

// Written as \uXXXX so the bundle stays ASCII (test/build/bundle.test.ts): \uFF5C is the// fullwidth bar ｜ and \u2581 the ▁ of DeepSeek's tool-call tokens.
const DEEPSEEK_OPEN = /^<[|\uFF5C]tool[\u2581_ ]calls[\u2581_ ]begin[|\uFF5C]>/;
const DEEPSEEK_CLOSE = /<[|\uFF5C]tool[\u2581_ ]calls[\u2581_ ]end[|\uFF5C]>/g;
const DEEPSEEK_CALL =
  /<[|\uFF5C]tool[\u2581_ ]call[\u2581_ ]begin[|\uFF5C]>(?:function<[|\uFF5C]tool[\u2581_ ]sep[|\uFF5C]>)?\s*([A-Za-z_][\w.-]*)\s*(?:<[|\uFF5C]tool[\u2581_ ]sep[|\uFF5C]>)?\s*(?:```(?:json)?\s*)?([\s\S]*?)\s*(?:```\s*)?<[|\uFF5C]tool[\u2581_ ]call[\u2581_ ]end[|\uFF5C]>/g;
const DEEPSEEK_LABEL = 'DeepSeek tool-call tokens';

/** The start of a list of Python-style calls (Llama 3.2): `[name(`. */
const PYTHONIC = /^\[\s*[A-Za-z_][\w.-]*\s*\(/;
const PYTHONIC_LABEL = 'a Python-style list of calls (Llama 3.2)';

/** Whether `i` is the first non-blank character of its line. */
function aloneOnLine(src: string, i: number): boolean {
  let j = i;
  while (j > 0 && (src[j - 1] === ' ' || src[j - 1] === '\t')) j -= 1;
  return j === 0 || src[j - 1] === '\n';
}

/** A JSON call with no tag around it: an object or array that starts like one. */
const BARE_JSON = /\[?\s*\{\s*"(?:name|type|function)"\s*:/y;

/** Finds the next match of a global regex at or after a position, remembering the last answer. */
class NextMatch {
  private from = -1;
  private at = -1;
  private len = 0;
  constructor(
    private readonly src: string,
    private readonly re: RegExp,
  ) {}
  find(from: number): { at: number; len: number } | undefined {
    if (this.from === -1 || from < this.from || (this.at !== -1 && from > this.at)) {
      this.re.lastIndex = from;
      const m = this.re.exec(this.src);
      this.from = from;
      this.at = m?.index ?? -1;
      this.len = m?.[0].length ?? 0;
    }
    return this.at === -1 ? undefined : { at: this.at, len: this.len };
  }
}

/** Per-reply state of the native reader: cached closer searches and a scan budget. */
export class NativeReader {
  private readonly closers = new Map<RegExp, NextMatch>();
  /** Characters failed JSON scans may still read: keeps hostile replies linear. */
  private budget: number;

  constructor(private readonly ix: ReplyIndex) {
    this.budget = 2 * ix.src.length + 65536;
  }

  /** The native block starting at `i`, or undefined when none starts there. */
  at(i: number): NativeParse | undefined {
    const { src } = this.ix;
    const c = src[i];
    if (c === '<' || c === '[') {
      if (DEEPSEEK_OPEN.test(src.slice(i, i + 32))) return this.deepseek(i);
      for (const form of FORMS) {
        form.open.lastIndex = i;
        const m = form.open.exec(src);
        if (m !== null) return this.block(form, i, i + m[0].length, m[1]);
      }
    }
    if (c === '{' || c === '[') {
      BARE_JSON.lastIndex = i;
      if (BARE_JSON.test(src)) return this.bareJson(i);
    }
    if (c === '[' && PYTHONIC.test(src.slice(i, i + 80)) && aloneOnLine(src, i)) {
      return this.pythonic(i);
    }
    return undefined;
  }

  /**
   * Llama 3.2's list of Python-style calls, `[read(path="a.md"), ls()]`, alone on its line.
   * Anything else that starts this way is left as text: without a tag, only a whole list of
   * well-formed calls is clearly meant as one.
   */
  private pythonic(start: number): NativeParse | undefined {
    const { src } = this.ix;
    const calls: FoundCall[] = [];
    let i = start + 1;
    for (;;) {
      while (/\s/.test(src[i] ?? '')) i += 1;
      const call = readCall(this.ix, i);
      if (!call.ok || call.error !== undefined) return undefined;
      calls.push({ name: call.name, named: call.named, args: call.args, at: i });
      i = call.end;
      while (/\s/.test(src[i] ?? '')) i += 1;
      if (src[i] === ',') {
        i += 1;
        continue;
      }
      if (src[i] !== ']') return undefined;
      const end = i + 1;
      if (!/^[ \t]*(?:\r?\n|$)/.test(src.slice(end, end + 64))) return undefined;
      return { items: spread(src, start, end, calls, PYTHONIC_LABEL), resume: end };
    }
  }

  private closer(re: RegExp, from: number): { at: number; len: number } | undefined {
    let finder = this.closers.get(re);
    if (finder === undefined) {
      finder = new NextMatch(this.ix.src, re);
      this.closers.set(re, finder);
    }
    return finder.find(from);
  }

  /** A tagged block: opener, body, optional closer. */
  private block(form: Form, start: number, bodyStart: number, name?: string): NativeParse {
    const { src } = this.ix;
    // The closer must come before the next block of the same kind, or it is that block's.
    const next = this.closer(globalOf(form.open), bodyStart);
    let close = form.close === undefined ? undefined : this.closer(form.close, bodyStart);
    if (close !== undefined && next !== undefined && next.at < close.at) close = undefined;
    const limit = close?.at ?? next?.at ?? src.length;
    const body = this.body(bodyStart, limit, name);
    if ('error' in body) {
      const end =
        close === undefined
          ? start + src.slice(start, limit).trimEnd().length
          : close.at + close.len;
      const text = src.slice(bodyStart, limit);
      return malformed(src, start, Math.max(end, start + 1), form.label, body.error, text, name);
    }
    const gap = src.slice(body.end, limit);
    if (close !== undefined && gap.trim() !== '') {
      const end = close.at + close.len;
      const error = `unexpected text before its closing tag: ${JSON.stringify(gap.trim().slice(0, 24))}`;
      return malformed(src, start, end, form.label, error, src.slice(bodyStart, limit), name);
    }
    const end = close === undefined ? body.end : close.at + close.len;
    return { items: spread(src, start, end, body.calls, form.label), resume: end };
  }

  /** The calls in a block's body: JSON, a protocol call, or (named block) the arguments. */
  private body(
    from: number,
    limit: number,
    blockName?: string,
  ): { calls: FoundCall[]; end: number } | { error: string } {
    const { src } = this.ix;
    let i = from;
    while (i < limit && /\s/.test(src[i] ?? '')) i += 1;
    if (src[i] === '{' || src[i] === '[') {
      const end = this.scan(i, limit);
      if (end === -1) return { error: 'its JSON does not close (the reply may have been cut off)' };
      const value = parseJson(src.slice(i, end));
      if (value === undefined)
        return { error: 'its JSON is not valid (keys and strings need "double quotes")' };
      if (blockName !== undefined) {
        if (!isPlainObject(value)) return { error: 'its arguments must be one JSON object' };
        return { calls: [{ name: blockName, named: namedFromObject(value) }], end };
      }
      const read = callsFromJson(value);
      return read.ok ? { calls: located(src, i, end, read.calls), end } : { error: read.error };
    }
    if (blockName !== undefined) return { error: 'its arguments must be one JSON object' };
    // A protocol call inside the tags, maybe with its own [TOOL] tags or Mistral's [ARGS].
    const inner = /^\s*(?:\[tool\]\s*)?/i.exec(src.slice(i, i + 16))?.[0].length ?? 0;
    const mistral = /^([A-Za-z_][\w.-]*)\[ARGS\]/.exec(src.slice(i + inner, i + inner + 80));
    if (mistral?.[1] !== undefined)
      return this.body(i + inner + mistral[0].length, limit, mistral[1]);
    const call = readCall(this.ix, i + inner);
    if (!call.ok) return { error: call.error.replace(/ Expected: .*$/, '') };
    if (call.error !== undefined) return { error: call.error.replace(/ Expected: .*$/, '') };
    let end = call.end;
    const closeTag = /^\s*\[\/tool\]/i.exec(src.slice(end, end + 16));
    if (closeTag) end += closeTag[0].length;
    const name = call.name.replace(/\.call$/, '');
    return { calls: [{ name, named: call.named, args: call.args }], end };
  }

  /** A JSON scan charged to the budget when it fails. */
  private scan(i: number, limit: number): number {
    if (this.budget <= 0) return -1;
    const end = scanJsonEnd(this.ix.src, i, Math.min(limit, i + this.budget));
    if (end === -1) this.budget -= Math.min(limit, this.ix.src.length) - i;
    return end;
  }

  /** A JSON call with no tag: only when it has exactly a call's shape. */
  private bareJson(start: number): NativeParse | undefined {
    const { src } = this.ix;
    const end = this.scan(start, src.length);
    const text = src.slice(start, end === -1 ? src.length : end);
    const value = end === -1 ? undefined : parseJson(text);
    const label =
      Array.isArray(value) || src[start] === '['
        ? 'a JSON list of calls (Mistral)'
        : 'a JSON call (Llama)';
    if (value === undefined) {
      // Only a near miss when it names a tool and has arguments; otherwise it is prose.
      const name = guessName(text.slice(0, 200));
      if (name === undefined || !/"(?:arguments|parameters)"\s*:/.test(text.slice(0, 400)))
        return undefined;
      // Cut off: the near miss ends with its line, so a later line gets its own reading.
      const lineEnd = src.indexOf('\n', start);
      const stop = end !== -1 ? end : lineEnd === -1 ? src.trimEnd().length : lineEnd;
      const error =
        end === -1
          ? 'its JSON does not close (the reply may have been cut off)'
          : 'its JSON is not valid';
      const seen = src.slice(start, stop);
      return malformed(src, start, Math.max(stop, start + 1), label, error, seen, name);
    }
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0 || !list.every(isCallShape)) return undefined;
    const read = callsFromJson(value);
    if (!read.ok) return undefined;
    const calls = located(src, start, end, read.calls);
    return { items: spread(src, start, end, calls, label), resume: end };
  }

  /** DeepSeek's token-delimited calls. */
  private deepseek(start: number): NativeParse {
    const { src } = this.ix;
    const close = this.closer(DEEPSEEK_CLOSE, start);
    const limit = close?.at ?? src.length;
    const end = close === undefined ? src.trimEnd().length : close.at + close.len;
    const body = src.slice(start, limit);
    const calls: FoundCall[] = [];
    for (const m of body.matchAll(DEEPSEEK_CALL)) {
      const args = parseJson(m[2] ?? '');
      if (!isPlainObject(args)) {
        const error = 'its arguments are not one valid JSON object';
        return malformed(src, start, end, DEEPSEEK_LABEL, error, m[2] ?? '', m[1]);
      }
      calls.push({ name: m[1] ?? '', named: namedFromObject(args), at: start + m.index });
    }
    if (calls.length === 0 || close === undefined) {
      const error =
        close === undefined
          ? 'the block does not end (the reply may have been cut off)'
          : 'no call could be read in it';
      return malformed(
        src,
        start,
        Math.max(end, start + 1),
        DEEPSEEK_LABEL,
        error,
        body,
        guessDeepseekName(body),
      );
    }
    return { items: spread(src, start, end, calls, DEEPSEEK_LABEL), resume: end };
  }
}

/** Keyed by the fixed opener patterns of the dialects: never grows with the session. */
const globals = new Map<RegExp, RegExp>();

/** The global twin of a sticky opener, for finding the next one. */
function globalOf(re: RegExp): RegExp {
  let g = globals.get(re);
  if (g === undefined) {
    g = new RegExp(re.source, re.flags.replace('y', '') + 'g');
    globals.set(re, g);
  }
  return g;
}

function guessDeepseekName(body: string): string | undefined {
  return /(?:sep[|\uFF5C]>|begin[|\uFF5C]>)\s*([A-Za-z_][\w.-]*)\s*(?:\n|```|<)/.exec(body)?.[1];
}
