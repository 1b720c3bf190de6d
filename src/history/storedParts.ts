/**
 * An assistant reply's parts as a session file holds them. A session saved before parts were
 * kept has none, and parts a hand-edited or damaged file holds may not have their shape: either
 * way the reply is read once, here, from its raw `content` (which is what the model saw), so
 * the rest of the program only ever meets well-formed parts.
 */
import type { HistoryMessage } from '../core/messages.js';
import { withParts } from '../protocol/replyParts.js';

type Fields = Record<string, unknown>;

const isFields = (v: unknown): v is Fields =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isArg = (v: unknown): boolean =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

const optional = (v: unknown, type: string): boolean => v === undefined || typeof v === type;

function isPart(p: unknown): boolean {
  if (!isFields(p)) return false;
  if (p.type === 'text') return typeof p.text === 'string';
  return (
    p.type === 'call' &&
    typeof p.id === 'string' &&
    Number.isSafeInteger(p.index) &&
    typeof p.raw === 'string' &&
    optional(p.name, 'string') &&
    optional(p.error, 'string') &&
    (p.args === undefined || (Array.isArray(p.args) && p.args.every(isArg))) &&
    (p.named === undefined ||
      (Array.isArray(p.named) &&
        p.named.every((n) => isFields(n) && typeof n.name === 'string' && isArg(n.value))))
  );
}

/** Whether `v` has the shape of a reply's parts. */
export function isReplyParts(v: unknown): boolean {
  return (
    isFields(v) &&
    typeof v.wait === 'boolean' &&
    optional(v.moreCalls, 'number') &&
    Array.isArray(v.items) &&
    v.items.every(isPart)
  );
}

/** `m` as loaded: a reply without well-formed parts is given them from its text, once. */
export function withStoredParts(m: HistoryMessage): HistoryMessage {
  if (m.parts === undefined || isReplyParts(m.parts)) return withParts(m);
  const { parts: _bad, ...rest } = m;
  return withParts(rest);
}
