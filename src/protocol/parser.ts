/**
 * The tool-protocol parser (the protocol: README.md, "How it works"): finds
 * `[TOOL] name("arg", 1) [/TOOL]` calls in a model reply, skipping the ones shown inside
 * Markdown code, and notices a trailing `[WAIT]`.
 *
 * One left-to-right scan: in text, it recognises fenced blocks (at line starts), inline code
 * spans and `[TOOL]` tags; at a tag it hands over to the call parser, whose strings are opaque,
 * so a fence or backtick inside a string argument never confuses the scan. Landmarks are
 * indexed up front, which keeps the whole parse close to linear even on hostile input.
 */
import { parseCallAt, type CallParse } from './callParser.js';
import { backtickRunLength, fenceAt, fenceBlockEnd, isLineStart } from './codeSpans.js';
import { firstAtOrAfter, indexReplySteps, tagAt, type ReplyIndex } from './replyIndex.js';
import { drain, drainYielding } from '../core/steps.js';
import { NativeReader, type NativeParse } from './nativeCalls.js';
import type { CallItem, ParsedReply } from './types.js';

export type { CallItem, MalformedCall, NamedArg, ParsedCall, ParsedReply } from './types.js';

/**
 * Parses a model reply into its tool calls (well-formed or not, in order), whether it ends
 * with `[WAIT]`, and the text left for display. Never throws; every `[TOOL]` outside code
 * yields exactly one item, and so does each call in a model's native format (nativeCalls.ts).
 * Named and bare-word arguments are placed later, against the tool (resolve.ts).
 */
export function parseReply(reply: string): ParsedReply {
  return drain(parseReplySteps(reply));
}

/**
 * {@link parseReply} that gives the event loop a turn every few milliseconds, so a key or a
 * signal lands within 50 ms even on a reply of 200,000 tags. Undefined when `signal`
 * aborted first.
 */
export function parseReplyYielding(
  reply: string,
  signal?: AbortSignal,
  maxItems = Infinity,
): Promise<ParsedReply | undefined> {
  return drainYielding(parseReplySteps(reply, maxItems), signal);
}

/** Scanner steps between two pauses: a few thousand characters or calls. */
const STEP = 256;

/** The parse as steps (see steps.ts); linear in the reply. */
function* parseReplySteps(reply: string, maxItems = Infinity): Generator<void, ParsedReply, void> {
  const src = typeof reply === 'string' ? reply : String(reply ?? '');
  const ix = yield* indexReplySteps(src);
  const memo = new Map<number, CallParse>();
  const callAt = (at: number): CallParse => {
    let parsed = memo.get(at);
    if (parsed === undefined) {
      parsed = parseCallAt(ix, at);
      memo.set(at, parsed);
    }
    return parsed;
  };

  const reader = new NativeReader(ix);
  const nativeMemo = new Map<number, NativeParse | undefined>();
  const nativeAt = (at: number): NativeParse | undefined => {
    if (!nativeMemo.has(at)) nativeMemo.set(at, reader.at(at));
    return nativeMemo.get(at);
  };
  const items: CallItem[] = [];
  const code: [number, number][] = [];
  let i = 0;
  let steps = 0;
  let settled = 0;
  let malformedSeen = false;
  while (i < src.length) {
    if (++steps % STEP === 0) yield;
    if (isLineStart(src, i)) {
      // Not past a malformed call: its error is worded from what follows it (a later tag).
      const open = ix.waitAt < 0 || ix.waitAt >= i;
      if (i > settled && open && !malformedSeen && afterBlankLine(src, i)) settled = i;
      const fence = fenceAt(src, i);
      if (fence !== undefined) {
        const end = fenceBlockEnd(src, i, fence);
        code.push([i, end]);
        i = end;
        continue;
      }
    }
    const c = src.charCodeAt(i);
    if (c === 0x60) {
      const len = backtickRunLength(src, i);
      const end = inlineCodeEnd(ix, i, len, callAt, nativeAt);
      if (end !== undefined) code.push([i, end]);
      i = end ?? i + len;
    } else if (c === 0x5b && tagAt(src, i) === 'open') {
      if (items.length >= maxItems) {
        // Only the first calls can run: count the rest instead of parsing them.
        const moreCalls = ix.openTags.length - ix.openTags.indexOf(i);
        return { items, wait: false, text: displayText(src, items, i), moreCalls };
      }
      const parsed = callAt(i);
      items.push(parsed.item);
      malformedSeen ||= parsed.item.type === 'malformed';
      i = parsed.resume;
    } else if (c === 0x3c || c === 0x5b || c === 0x7b) {
      // `<`, `[`, `{`: maybe a model's native call format (nativeCalls.ts). Read even past
      // `maxItems`, so calls past the cap are counted as not run rather than dropped.
      const found = nativeAt(i);
      if (found === undefined) {
        i += 1;
      } else {
        items.push(...found.items);
        malformedSeen ||= found.items.some((it) => it.type === 'malformed');
        i = found.resume;
      }
    } else {
      i += 1;
    }
  }

  const wait =
    ix.waitAt >= 0 &&
    !code.some(([a, b]) => a <= ix.waitAt && ix.waitAt < b) &&
    !items.some((it) => it.start <= ix.waitAt && ix.waitAt < it.end);
  const text = displayText(src, items, wait ? ix.waitAt : src.length);
  return { items, wait, text, ...(settled > 0 ? { settled } : {}) };
}

/** Whether the line before the one starting at `i` is blank (spaces at most). */
function afterBlankLine(src: string, i: number): boolean {
  let j = i - 2;
  while (j >= 0 && (src[j] === ' ' || src[j] === '\t' || src[j] === '\r')) j -= 1;
  return j >= 0 && src.charCodeAt(j) === 0x0a;
}

/**
 * The end of the inline code span opened by the backtick run at `p`, or undefined when the
 * run is literal text. Like CommonMark, the span closes at the next run of the same length
 * and cannot cross a blank line or a fence line. One more rule for this protocol: if a
 * well-formed call starts inside the would-be span and ends after its closer, the closer is
 * a backtick inside that call's string, so the opener was a stray backtick in prose.
 */
function inlineCodeEnd(
  ix: ReplyIndex,
  p: number,
  len: number,
  callAt: (at: number) => CallParse,
  nativeAt: (at: number) => NativeParse | undefined,
): number | undefined {
  const q = firstAtOrAfter(ix.runs.get(len) ?? [], p + 1);
  if (q === Infinity) return undefined;
  if (firstAtOrAfter(ix.breaks, p + 1) < q) return undefined;
  let t = firstAtOrAfter(ix.openTags, p);
  while (t < q) {
    const { item } = callAt(t);
    if (item.type !== 'call') break;
    if (item.end > q) return undefined;
    t = firstAtOrAfter(ix.openTags, item.end);
  }
  // The same for a native tag (`<tool_call>` …) whose JSON holds the closing backtick.
  // Only the span is searched: it is consumed when it is code, so this stays linear.
  for (const m of ix.src.slice(p, q).matchAll(NATIVE_TAG)) {
    const found = nativeAt(p + m.index);
    if (found?.items.every((it) => it.type === 'call') === true && found.resume > q)
      return undefined;
  }
  return q + len;
}

/** Where a tagged native call may start (nativeCalls.ts), to check inside inline code. */
// \uFF5C and \u2581: DeepSeek's ｜ and ▁, escaped so the bundle stays ASCII.
const NATIVE_TAG =
  /<tool_call>|<\|python_tag\|>|<function=|\[TOOL_CALLS?\]|<[|\uFF5C]tool[\u2581_ ]calls/gi;

function isHorizontalSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/**
 * The reply with the call blocks cut out. A block alone on its line takes its line with it;
 * a block inside a line takes the spaces on one side, so no double spaces or blank lines
 * are left where calls were.
 */
export function displayText(
  src: string,
  items: readonly Pick<CallItem, 'start' | 'end'>[],
  limit: number,
): string {
  let out = '';
  let prev = 0;
  for (const item of items) {
    let a = item.start;
    let l = a;
    while (l > prev && isHorizontalSpace(src[l - 1])) l -= 1;
    let r = item.end;
    while (r < limit && isHorizontalSpace(src[r])) r += 1;
    const startsLine = l === 0 || src[l - 1] === '\n';
    const endsLine = r >= limit || src[r] === '\n' || (src[r] === '\r' && src[r + 1] === '\n');
    if (startsLine || endsLine) a = l;
    let b = r;
    if (startsLine && endsLine && r < limit) b = r + (src[r] === '\r' ? 2 : 1);
    out += src.slice(prev, Math.max(prev, a));
    prev = Math.max(prev, b);
  }
  out += src.slice(prev, Math.max(prev, limit));
  return out.trim();
}
