/**
 * The `tool` message that stores one call's result: the text the model is sent, and the
 * same result as structured data for the screen (so the screen never parses that text).
 */
import { makeMessage, type HistoryMessage } from '../core/messages.js';
import { formatResultsMessage, type ResultBlock } from './format.js';

/**
 * The message saving `result`, the call at `callIndex` of its reply (`callId`: the call's id
 * in the reply's parts, its link to this answer).
 */
export function resultMessage(
  result: ResultBlock,
  callIndex: number,
  callId?: string,
): HistoryMessage {
  return makeMessage('tool', formatResultsMessage([result]), {
    callIndex,
    ...(callId !== undefined ? { callId } : {}),
    results: [{ call: result.call, ok: result.ok }],
  });
}
