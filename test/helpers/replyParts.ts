/**
 * Replies as the turn stores them: a test that builds an assistant message by hand gives it
 * the parts the turn would (one parse, as RUN or the session load does).
 */
import { makeMessage, type HistoryMessage, type ReplyParts } from '../../src/core/messages.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf, withParts } from '../../src/protocol/replyParts.js';
import { StreamingParts } from '../../src/protocol/streamingParts.js';
import type { AgentEvent } from '../../src/api/events.js';

/** The parts of `content`, read once. */
export function partsOfText(content: string): ReplyParts {
  return partsOf('test', content, parseReply(content));
}

/** An assistant message with its parts, as the turn saves it. */
export function replyMessage(
  content: string,
  extra: Parameters<typeof makeMessage>[2] = {},
): HistoryMessage {
  return withParts(makeMessage('assistant', content, extra));
}

/**
 * The `message_update` events of one reply as the turn emits them: each piece read by one
 * reader (the turn's), the event carrying what it changed in the parts.
 */
export function replyUpdates(turnId = 1): (delta: string) => AgentEvent {
  const reader = new StreamingParts();
  return (delta) => ({ type: 'message_update', turnId, delta, parts: reader.push(delta) });
}

const liveReader = new StreamingParts();

/**
 * The parts of a reply in flight as the turn's reader reads it, a tail at a time (texts that
 * go on from the last); the same text again gives the same parts object, as the store does.
 */
export function liveOf(text: string): ReplyParts {
  return liveReader.read(text);
}
