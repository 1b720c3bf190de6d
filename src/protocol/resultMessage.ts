/**
 * The `tool` message that stores one call's result: the text the model is sent, and the
 * same result as structured data for the screen (so the screen never parses that text).
 */
import { makeMessage, type HistoryMessage } from '../core/messages.js';
import { formatResultsMessage, type ResultBlock } from './format.js';

/** The message saving `result`, the call at `callIndex` of its reply. */
export function resultMessage(result: ResultBlock, callIndex: number): HistoryMessage {
  return makeMessage('tool', formatResultsMessage([result]), {
    callIndex,
    results: [{ call: result.call, ok: result.ok }],
  });
}
