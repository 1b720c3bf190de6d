/**
 * The `tool` message that stores one call's result: the text the model is sent, and the
 * same result as structured data for the screen (so the screen never parses that text).
 */
import { makeMessage, type HistoryMessage, type ShownResult } from '../core/messages.js';
import { formatResultsMessage, type ResultBlock } from './format.js';

/**
 * The message saving `result`, the call at `callIndex` of its reply (`callId`: the call's id
 * in the reply's parts, its link to this answer).
 */
export function resultMessage(
  result: ResultBlock & { shown?: ShownResult },
  callIndex: number,
  callId?: string,
): HistoryMessage {
  const { call, ok, shown } = result;
  return makeMessage('tool', formatResultsMessage([result]), {
    callIndex,
    ...(callId !== undefined ? { callId } : {}),
    results: [{ call, ok, ...(shown ? { shown: keptShown(shown) } : {}) }],
  });
}

/**
 * A string argument kept with the result at most this long: the reply holds the call whole,
 * and a 100 KB `write` need not be stored twice for the tool log's detail view.
 */
export const SHOWN_ARG_CAP = 4096;

function keptShown(shown: ShownResult): ShownResult {
  const args = shown.args.map((a) =>
    typeof a === 'string' && a.length > SHOWN_ARG_CAP ? `${a.slice(0, SHOWN_ARG_CAP)}…` : a,
  );
  return { ...shown, args };
}
