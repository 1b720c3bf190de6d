/**
 * Sessions saved before tool messages carried `results` have only the model-facing text.
 * Their results are read from it once, when the file is loaded, so the rest of the program
 * (the screen above all) only ever sees the structured field.
 */
import type { HistoryMessage, ResultSummary } from '../core/messages.js';

/** A result block's head line, as `formatResultsMessage` writes it: `[RESULT ls(".")] ok`. */
const RESULT_HEAD = /^\[RESULT (.*)\] (ok|error)$/gm;

/** The results named in an old tool message's text (none when it has no result heads). */
function resultsFromText(content: string): ResultSummary[] {
  return [...content.matchAll(RESULT_HEAD)].map((m) => ({ call: m[1]!, ok: m[2] === 'ok' }));
}

/** `m` with `results` filled in, for a tool message saved without them; others unchanged. */
export function withLegacyResults(m: HistoryMessage): HistoryMessage {
  if (m.role !== 'tool' || m.results !== undefined) return m;
  const results = resultsFromText(m.content);
  return results.length > 0 ? { ...m, results } : m;
}
