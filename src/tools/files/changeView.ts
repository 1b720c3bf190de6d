/**
 * What an overwrite or an edit will do, as the user should see it: a unified diff against
 * the file as it is now (on the approval card before, in the tool detail after). When no
 * diff can be made (a new file, a binary or too large a file) the new content is shown
 * instead, and the first line says why, so the card never passes it off as a diff.
 */
import { DIFF_MAX_BYTES, unifiedDiff } from '../../diff/unifiedDiff.js';
import type { ToolContext } from '../types.js';
import type { ResolvedDeps } from './deps.js';
import { decodeText } from '../../documents/encoding.js';

export interface ChangeView {
  detail: string;
  detailKind: 'diff' | 'text';
}

/** The file's text now: undefined when it does not exist, or why it cannot be compared. */
export async function currentText(
  abs: string,
  ctx: ToolContext,
  deps: Pick<ResolvedDeps, 'fs' | 'readWhole'>,
): Promise<{ text: string } | { why: string } | undefined> {
  const st = await deps.fs.stat(abs).catch(() => undefined);
  if (st === undefined) return undefined;
  if (!st.isFile()) return { why: 'the target is not a regular file' };
  if (st.size > DIFF_MAX_BYTES) {
    return { why: `the file is too large to compare (${st.size} bytes)` };
  }
  try {
    const decoded = decodeText(await deps.readWhole(abs, ctx.workspace, { signal: ctx.signal }));
    if (decoded.kind === 'binary') return { why: `the file is binary (${decoded.type})` };
    return { text: decoded.text };
  } catch (e) {
    return { why: `the file could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

/**
 * Text as the screen may show it: the session's secrets redacted in the whole text before
 * it is compared, so a change that splits a key never shows it in pieces on diff lines.
 */
function shown(text: string, ctx: ToolContext): string {
  return ctx.redact === undefined ? text : ctx.redact(text);
}

/** The unified diff of a change as the tool detail shows it (secrets redacted first). */
export function shownDiff(
  rel: string,
  before: string,
  after: string,
  ctx: ToolContext,
): string | undefined {
  const diff = unifiedDiff(rel, shown(before, ctx), shown(after, ctx));
  return diff.ok ? diff.text : undefined;
}

/** The view of `rel` going from `before` (undefined: a new file) to `after`. */
export function changeView(
  rel: string,
  before: { text: string } | { why: string } | undefined,
  rawAfter: string,
  ctx: ToolContext,
): ChangeView {
  const after = shown(rawAfter, ctx);
  if (before === undefined) {
    return { detail: after, detailKind: 'text' }; // a new file: its content is the change
  }
  if ('why' in before) {
    return {
      detail: `No diff: ${before.why}. The whole new content:\n${after}`,
      detailKind: 'text',
    };
  }
  const diff = unifiedDiff(rel, shown(before.text, ctx), after);
  if (!diff.ok) {
    return {
      detail: `No diff: ${diff.reason}. The whole new content:\n${after}`,
      detailKind: 'text',
    };
  }
  return { detail: diff.text, detailKind: 'diff' };
}
