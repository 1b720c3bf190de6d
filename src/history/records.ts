import type { HistoryMessage, ResultSummary, Role } from '../core/messages.js';
import { withStoredParts } from './storedParts.js';

/**
 * One line of a history file. The live conversation is rebuilt by replaying the lines in order:
 * - `msg` appends a message;
 * - `compact` replaces every live message from the start up to and including `upToId` with
 *   `summary` (the originals stay in the file above it and in `archive.jsonl`), so compression
 *   never rewrites the file.
 */
export type HistoryRecord =
  | { readonly t: 'msg'; readonly m: HistoryMessage }
  | { readonly t: 'compact'; readonly summary: HistoryMessage; readonly upToId: string };

const ROLES: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool']);

/** Why `value` is not a well-formed `HistoryMessage`, or `undefined` when it is. */
export function messageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const m = value as Record<string, unknown>;
  if (typeof m.id !== 'string' || m.id === '') return 'missing id';
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) return `unknown role ${String(m.role)}`;
  if (typeof m.content !== 'string') return 'content is not a string';
  if (typeof m.at !== 'number' || !Number.isFinite(m.at)) return 'missing timestamp';
  if (m.reasoning !== undefined && typeof m.reasoning !== 'string') return 'bad reasoning';
  if (m.interrupted !== undefined && typeof m.interrupted !== 'boolean') return 'bad interrupted';
  if (m.summary !== undefined && typeof m.summary !== 'boolean') return 'bad summary flag';
  if (m.cycle !== undefined && typeof m.cycle !== 'number') return 'bad cycle number';
  if (m.results !== undefined && !isResultList(m.results)) return 'bad results';
  return undefined;
}

function isResultList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as Record<string, unknown>).call === 'string' &&
        typeof (r as Record<string, unknown>).ok === 'boolean',
    )
  );
}

/**
 * One record as a single JSON line, without the trailing newline. `t` comes first so a line
 * can be recognised by its prefix (see `countMessageRecords`); JSON escapes newlines inside
 * strings, so a record never spans lines.
 */
export function serializeRecord(record: HistoryRecord): string {
  return JSON.stringify(record);
}

/** The prefix every `msg` line starts with (quotes inside strings are escaped, so it is unique). */
export const MSG_LINE_PREFIX = '{"t":"msg"';

/** Parses one line into a record, or returns why it is unreadable. */
export function parseRecord(line: string): HistoryRecord | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'not a record object' };
  }
  const r = value as Record<string, unknown>;
  if (r.t === 'msg') {
    const problem = messageProblem(r.m);
    return problem
      ? { problem: `bad message (${problem})` }
      : { t: 'msg', m: withStoredParts(withLegacyResults(r.m as HistoryMessage)) };
  }
  if (r.t === 'compact') {
    const problem = messageProblem(r.summary);
    if (problem) return { problem: `bad summary (${problem})` };
    if (typeof r.upToId !== 'string') return { problem: 'compact record without upToId' };
    return { t: 'compact', summary: r.summary as HistoryMessage, upToId: r.upToId };
  }
  return { problem: `unknown record type ${JSON.stringify(r.t)}` };
}

/*
 * Sessions saved before tool messages carried `results` have only the model-facing text.
 * Their results are read from it once, when the file is loaded, so the rest of the program
 * (the screen above all) only ever sees the structured field.
 */

/** A result block's head line, as `formatResultsMessage` writes it: `[RESULT ls(".")] ok`. */
const RESULT_HEAD = /^\[RESULT (.*)\] (ok|error)$/gm;

/** The results named in an old tool message's text (none when it has no result heads). */
function resultsFromText(content: string): ResultSummary[] {
  return [...content.matchAll(RESULT_HEAD)].map((m) => ({ call: m[1]!, ok: m[2] === 'ok' }));
}

/** `m` with `results` filled in, for a tool message saved without them; others unchanged. */
function withLegacyResults(m: HistoryMessage): HistoryMessage {
  if (m.role !== 'tool' || m.results !== undefined) return m;
  const results = resultsFromText(m.content);
  return results.length > 0 ? { ...m, results } : m;
}
