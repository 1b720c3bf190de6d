/**
 * A reply in parts: the parser's reading of a reply, kept on the stored assistant message so
 * nothing after the turn parses the reply again (the screen, the ledger, crash recovery).
 * The turn makes them once (RUN, or SAVE for a reply cut short before RUN read it); a session
 * saved before parts were kept gets them once, when it is loaded ({@link withParts}).
 */
import type {
  HistoryMessage,
  ReplyCall,
  ReplyPart,
  ReplyParts,
  ReplyText,
} from '../core/messages.js';
import { displayText, parseReply } from './parser.js';
import type { CallItem, ParsedReply } from './types.js';

/** The id of the `index`-th call of the reply `replyId`; its result carries it as `callId`. */
export function callIdOf(replyId: string, index: number): string {
  return `${replyId}#${index}`;
}

function callPart(replyId: string, item: CallItem, index: number): ReplyCall {
  const base = {
    type: 'call' as const,
    id: callIdOf(replyId, index),
    index,
    raw: item.raw,
    ...(item.native !== undefined ? { native: item.native } : {}),
  };
  if (item.type === 'malformed') {
    return { ...base, ...(item.name !== undefined ? { name: item.name } : {}), error: item.error };
  }
  const named = item.named?.map((n) => ({ name: n.name, value: n.value }));
  return { ...base, name: item.name, args: item.args, ...(named ? { named } : {}) };
}

/**
 * The parts of `content` as `parsed` read it: the text between calls as written (the
 * trailing `[WAIT]` dropped), each call with its id. Empty stretches of text are left out.
 */
export function partsOf(
  replyId: string,
  content: string,
  parsed: ParsedReply,
  /** The index of the first call (a reply read in pieces numbers on). */
  firstCall = 0,
): ReplyParts {
  const items: ReplyPart[] = [];
  const text = (t: string): void => {
    if (t !== '') items.push({ type: 'text', text: t });
  };
  let pos = 0;
  for (const [index, item] of parsed.items.entries()) {
    text(content.slice(pos, item.start));
    items.push(callPart(replyId, item, firstCall + index));
    pos = item.end;
  }
  const tail = content.slice(pos);
  text(parsed.wait ? tail.replace(/\[wait\]\s*$/i, '') : tail);
  return {
    items,
    wait: parsed.wait,
    ...(parsed.moreCalls !== undefined ? { moreCalls: parsed.moreCalls } : {}),
  };
}

/** A call part as the parser's item again (positions relative to the call), for code that runs or names calls. */
export function callItemOf(call: ReplyCall): CallItem {
  const at = {
    raw: call.raw,
    start: 0,
    end: call.raw.length,
    ...(call.native !== undefined ? { native: call.native } : {}),
  };
  if (call.error !== undefined || call.name === undefined) {
    return {
      type: 'malformed',
      ...at,
      ...(call.name !== undefined ? { name: call.name } : {}),
      error: call.error ?? 'unreadable call',
    };
  }
  return {
    type: 'call',
    ...at,
    name: call.name,
    args: [...(call.args ?? [])],
    ...(call.named ? { named: call.named.map((n) => ({ ...n })) } : {}),
  };
}

/** The reply's calls, in order. */
export function callsOf(parts: ReplyParts): ReplyCall[] {
  return parts.items.filter((p): p is ReplyCall => p.type === 'call');
}

/**
 * The reply as shown in one string: without its calls and `[WAIT]`, trimmed, spaced as the
 * parser's display text is (a call alone on its line takes its line with it).
 */
export function shownText(parts: ReplyParts): string {
  let src = '';
  const spans: { start: number; end: number }[] = [];
  for (const p of parts.items) {
    if (p.type === 'text') src += p.text;
    else {
      spans.push({ start: src.length, end: src.length + p.raw.length });
      src += p.raw;
    }
  }
  return displayText(src, spans, src.length);
}

/** The text stretches of a reply; each knows how many calls came before it (its segment). */
export function textSegments(parts: ReplyParts): { text: ReplyText; segment: number }[] {
  const out: { text: ReplyText; segment: number }[] = [];
  let calls = 0;
  for (const p of parts.items) {
    if (p.type === 'call') calls += 1;
    else out.push({ text: p, segment: calls });
  }
  return out;
}

/**
 * `m` with its parts: an assistant reply saved without them (by a version before parts were
 * kept) is parsed here, once; any other message is returned as it is.
 */
export function withParts(m: HistoryMessage): HistoryMessage {
  if (m.role !== 'assistant' || m.parts !== undefined || m.summary === true) return m;
  return { ...m, parts: partsOf(m.id, m.content, parseReply(m.content)) };
}
