/**
 * One unified diff for every place that shows a change before or after it happens: the
 * approval card of an overwrite or edit, and the tool detail of a finished one. The diff is
 * computed by jsdiff (`diff`); this module bounds its cost and says plainly when it gave up,
 * so a screen never shows a partial diff as if it were the whole change.
 */
import { structuredPatch } from 'diff';

/** Larger sides are not diffed: the card then shows the new content and says why. */
export const DIFF_MAX_BYTES = 1_000_000;
/** Most edit steps the diff explores before giving up (bounds time on unrelated texts). */
const MAX_EDIT_LENGTH = 5_000;
/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;

export type UnifiedDiff =
  | {
      ok: true;
      /** `--- a/path`, `+++ b/path`, then `@@ … @@` hunks of ` `, `-` and `+` lines. */
      text: string;
      added: number;
      removed: number;
    }
  | { ok: false; reason: string };

/** The unified diff that turns `before` into `after`, both the text of the file at `rel`. */
export function unifiedDiff(rel: string, before: string, after: string): UnifiedDiff {
  const size = Math.max(Buffer.byteLength(before), Buffer.byteLength(after));
  if (size > DIFF_MAX_BYTES) {
    return {
      ok: false,
      reason: `too large to compare line by line (${size} bytes, the limit is ${DIFF_MAX_BYTES})`,
    };
  }
  const patch = structuredPatch(`a/${rel}`, `b/${rel}`, before, after, '', '', {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch === undefined) {
    return {
      ok: false,
      reason: `too different to compare (over ${MAX_EDIT_LENGTH} changed lines)`,
    };
  }
  const lines = [`--- a/${rel}`, `+++ b/${rel}`];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
      lines.push(l);
    }
  }
  if (patch.hunks.length === 0) lines.push('(no change: the new content is the same as the file)');
  return { ok: true, text: lines.join('\n'), added, removed };
}

/** How a diff line reads: the file names, a hunk header, a removed, added or unchanged line. */
export type DiffLineKind = 'file' | 'hunk' | 'removed' | 'added' | 'context' | 'note';

/** The kind of one line of {@link unifiedDiff}'s text (the screens colour by it). */
export function diffLineKind(line: string, index: number): DiffLineKind {
  if (index < 2 && (line.startsWith('--- ') || line.startsWith('+++ '))) return 'file';
  if (line.startsWith('@@ ')) return 'hunk';
  if (line.startsWith('-')) return 'removed';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith(' ')) return 'context';
  return 'note';
}
