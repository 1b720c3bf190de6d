/**
 * Replies as the turn stores them: a test that builds an assistant message by hand gives it
 * the parts the turn would (one parse, as RUN or the session load does).
 */
import { makeMessage, type HistoryMessage, type ReplyParts } from '../../src/core/messages.js';
import { parseReply } from '../../src/protocol/parser.js';
import { partsOf, withParts } from '../../src/protocol/replyParts.js';

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
