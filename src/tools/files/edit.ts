/**
 * `edit(path, old, new)`: replaces one exact, unique piece of text. A piece that is missing
 * or appears several times is an error naming the lines, so the model adds context instead
 * of the tool guessing which occurrence was meant.
 */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, okWithDiff } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps, type ResolvedDeps } from './deps.js';
import { fsFailure, q, resolvePath, strArg } from './common.js';
import { decodeText, encodingLabel } from '../../documents/encoding.js';
import { writeNeed } from './protection.js';
import { changeView, currentText, shownDiff, type ChangeView } from './changeView.js';

/** Creates the `edit` tool. */
export function createEditTool(deps?: FileToolDeps): Tool {
  const { fs, writeAtomic, readWhole } = resolveDeps(deps);
  return {
    name: 'edit',
    description:
      'Replace the exact text old with new in a file. old must appear exactly once; copy it from read, including spaces and line breaks.',
    kind: 'write',
    params: [
      { name: 'path', type: 'string', description: 'file to edit' },
      { name: 'old', type: 'string', description: 'exact text to replace (must be unique)' },
      { name: 'new', type: 'string', description: 'replacement text' },
    ],
    async needsApproval(args, ctx) {
      const planted = await writeNeed(
        ctx,
        args,
        `replace:\n${strArg(args, 1)}\nwith:\n${strArg(args, 2)}`,
      );
      // The card shows the edit as a diff against the file as it is now, when it applies.
      const view = await editView({ fs, readWhole }, args, ctx);
      if (view === undefined) return planted;
      return planted === undefined ? view : { ...planted, ...view };
    },
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const oldText = strArg(args, 1);
      const newText = strArg(args, 2);
      const r = await resolvePath(ctx, strArg(args, 0), { mustExist: true, access: 'write' });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      if (oldText === '') {
        return fail(
          'invalid_args',
          'old is empty: give the exact text to replace, copied from read.',
        );
      }
      let buf: Buffer;
      try {
        if ((await fs.stat(abs)).isDirectory()) {
          return fail('invalid_args', `${q(rel)} is a folder; edit changes files.`);
        }
        buf = await readWhole(abs, ctx.workspace, { signal: ctx.signal });
      } catch (e) {
        return fsFailure(e, rel, 'edit');
      }
      const decoded = decodeText(buf);
      if (decoded.kind === 'binary') {
        return fail(
          'binary',
          `${q(rel)} is a binary file (${decoded.type}); edit only changes text.`,
        );
      }
      if (decoded.encoding !== 'utf-8') {
        return fail(
          'unsupported',
          `${q(rel)} is ${encodingLabel(decoded.encoding)}-encoded and edit writes only UTF-8. Read it and use create to rewrite it as UTF-8 if that is acceptable.`,
        );
      }
      const text = decoded.text;
      const match = findUnique(text, oldText, newText);
      if (!match.ok) return fail(match.kind, `${match.message.replace('{file}', q(rel))}`);
      const updated = applyMatch(text, match);
      try {
        await writeAtomic(abs, decoded.bom ? `\uFEFF${updated}` : updated, ctx.workspace);
      } catch (e) {
        return fsFailure(e, rel, 'edit');
      }
      const line = lineOf(text, match.index);
      return okWithDiff(
        `Edited ${rel}: replaced 1 occurrence at line ${line}.`,
        `edited ${rel}:${line}`,
        shownDiff(rel, text, updated, ctx),
      );
    },
  };
}

/** The edit as the card shows it; undefined when it would fail (run() then reports why). */
async function editView(
  deps: Pick<ResolvedDeps, 'fs' | 'readWhole'>,
  args: readonly ToolArg[],
  ctx: ToolContext,
): Promise<ChangeView | undefined> {
  const r = await resolvePath(ctx, strArg(args, 0), { mustExist: true });
  if (!r.ok) return undefined;
  const now = await currentText(r.path.abs, ctx, deps);
  if (now === undefined || 'why' in now) return undefined;
  const match = findUnique(now.text, strArg(args, 1), strArg(args, 2));
  if (!match.ok || strArg(args, 1) === '') return undefined;
  return changeView(r.path.rel, now, applyMatch(now.text, match), ctx);
}

function applyMatch(
  text: string,
  m: { index: number; needle: string; replacement: string },
): string {
  return text.slice(0, m.index) + m.replacement + text.slice(m.index + m.needle.length);
}

type Match =
  | { ok: true; index: number; needle: string; replacement: string }
  | { ok: false; kind: 'not_found' | 'invalid_args'; message: string };

/**
 * Finds the single occurrence of `oldText`. If the file uses CRLF line endings and the
 * model wrote LF (it usually does), the CRLF form is tried too, and the replacement
 * keeps the file's line endings.
 */
function findUnique(text: string, oldText: string, newText: string): Match {
  const tries: [string, string][] = [[oldText, newText]];
  if (text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r\n')) {
    tries.push([oldText.replace(/\n/g, '\r\n'), newText.replace(/\r?\n/g, '\r\n')]);
  }
  for (const [needle, replacement] of tries) {
    const at = occurrences(text, needle);
    if (at.length === 1) return { ok: true, index: at[0] ?? 0, needle, replacement };
    if (at.length > 1) {
      const lines = at
        .slice(0, 10)
        .map((i) => lineOf(text, i))
        .join(', ');
      return {
        ok: false,
        kind: 'invalid_args',
        message: `The text to replace was found ${at.length} times in {file} (lines ${lines}). Include more surrounding text so it matches exactly once.`,
      };
    }
  }
  return {
    ok: false,
    kind: 'not_found',
    message:
      'The text to replace was not found in {file}. Read the file and copy the exact text, including spaces, indentation and line breaks.',
  };
}

/** Start offsets of every occurrence, overlapping ones included (they make a match ambiguous too). */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
