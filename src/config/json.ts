import type { ConfigIssue } from './issues.js';

/** The result of reading config text: a value, or one issue pointing at the broken spot. */
type JsonParse = { ok: true; value: unknown } | { ok: false; issue: ConfigIssue };

/**
 * Parses JSON and, on a syntax error, reports the line and column with a fix aimed at the
 * usual hand-editing mistakes (trailing commas, comments, single quotes, missing commas).
 * A byte-order mark is ignored; an empty file reads as `{}`.
 */
export function parseJsonText(raw: string): JsonParse {
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = errorOffset(message, text);
    const { line, column } = lineColumn(text, pos);
    const reason = message
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/\s*\(line.*$/s, '');
    return {
      ok: false,
      issue: {
        field: '(file)',
        problem: `not valid JSON: ${reason} at line ${line}, column ${column}`,
        fix: jsonFix(text, pos),
        line,
        column,
      },
    };
  }
}

/** V8 says "at position N", or "Unexpected end of JSON input" with no position. */
function errorOffset(message: string, text: string): number {
  const m = /position (\d+)/.exec(message);
  if (m?.[1] !== undefined) return Math.min(Number(m[1]), text.length);
  return text.length;
}

/** 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

function jsonFix(text: string, pos: number): string {
  const here = text.slice(pos);
  const before = text.slice(0, pos).trimEnd();
  if (pos >= text.length) {
    return 'The file ends too early: close every { with } and every " with ", then save again.';
  }
  if (here.startsWith('//') || here.startsWith('/*')) {
    return 'JSON does not allow comments: delete the comment.';
  }
  if ((here.startsWith('}') || here.startsWith(']')) && before.endsWith(',')) {
    return 'Remove the comma before the closing bracket: JSON does not allow a trailing comma.';
  }
  if (here.startsWith("'")) return 'Use double quotes (") around keys and text, not single quotes.';
  if (/^[A-Za-z_]/.test(here) && /[{,]$/.test(before)) {
    return 'Put the key in double quotes, e.g. "model": "deepseek-chat".';
  }
  if (here.startsWith('"') && /["\d}\]el]$/.test(before)) {
    return 'Add a comma between the two entries.';
  }
  return 'Correct the JSON at that spot (or delete the file to start over with the defaults).';
}
