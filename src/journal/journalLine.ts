/**
 * Reads one line of `changes.jsonl` back: JSON first, then the field-by-field check of
 * recordCheck.ts (its own file, so the record types need not import the check).
 */
import { checkRecord } from './recordCheck.js';
import type { JournalRecord } from './records.js';

/** One line read back: a checked record, a torn line, or a line refused with its reason. */
export type ParsedLine = { record: JournalRecord } | { torn: true } | { problem: string };

/**
 * Parses and checks one line (see `checkRecord`). A line that is not JSON is `torn` (a kill
 * in the middle of a write leaves one as the last line); one that is JSON but not a record
 * Cogito writes comes back with the reason, to be reported and skipped.
 */
export function parseJournalLine(line: string): ParsedLine {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { torn: true };
  }
  return checkRecord(v);
}
