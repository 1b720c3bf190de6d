/**
 * One unified diff for every place that shows a change before or after it happens: the
 * approval card of an overwrite or edit, and the tool detail of a finished one. The diff is
 * computed by jsdiff (`diff`); this module bounds its cost and says plainly when it gave up,
 * so a screen never shows a partial diff as if it were the whole change.
 */
import { structuredPatch } from 'diff';

/** Larger sides are not diffed: the card then shows the new content and says why. */
export const DIFF_MAX_BYTES = 1_000_000;
/**
 * Most edit steps, and most milliseconds, the line matching may take before it gives up: on
 * unrelated texts jsdiff's cost grows with lines × edits (two unrelated 100 KB texts took
 * over 4 s unbounded; bench/cards.ts). Past either, the change is shown as a whole.
 */
const MAX_EDIT_LENGTH = 2_000;
const MAX_DIFF_MS = 250;
/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;

export type UnifiedDiff =
  | {
      ok: true;
      /** `--- a/path`, `+++ b/path`, then `@@ … @@` hunks of ` `, `-` and `+` lines. */
      text: string;
      added: number;
      removed: number;
      /** True when the texts were too different to match: every old line out, every new in. */
      whole: boolean;
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
    timeout: MAX_DIFF_MS,
  });
  if (patch === undefined) return wholeChange(rel, before, after);
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
  return { ok: true, text: lines.join('\n'), added, removed, whole: false };
}

/** The change as one hunk replacing every line: still a true unified diff, found at once. */
function wholeChange(rel: string, before: string, after: string): UnifiedDiff {
  const split = (t: string): string[] => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const old = split(before);
  const now = split(after);
  const text = [
    `--- a/${rel}`,
    `+++ b/${rel}`,
    '(too different to match line by line: every old line is removed, every new line added)',
    `@@ -${old.length === 0 ? 0 : 1},${old.length} +${now.length === 0 ? 0 : 1},${now.length} @@`,
    ...old.map((l) => `-${l}`),
    ...now.map((l) => `+${l}`),
  ].join('\n');
  return { ok: true, text, added: now.length, removed: old.length, whole: true };
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
