/**
 * How instruction files are framed for the model and listed for the user. They are the
 * user's own words for this workspace, so they are introduced as instructions to follow,
 * unlike content from outside, which reaches the model fenced off as data
 * (src/safety/untrusted.ts). Whatever the budget cut, an import refused and a change of
 * Cogito's held back are named in the same place, never dropped silently.
 */
import type { InstructionFile } from './types.js';
import { formatSize as formatBytes } from '../tools/files/common.js';

const ORIGIN: Record<InstructionFile['origin'], string> = {
  user: "the user's own file, for every workspace",
  workspace: 'the workspace',
  folder: 'a subfolder',
};

/** What a file lost to the budget, in words ('' when nothing). */
export function cutWords(f: InstructionFile): string {
  if (f.kept >= f.bytes) return '';
  if (f.kept === 0) return `not loaded: the instruction budget was spent (${formatBytes(f.bytes)})`;
  return `cut to fit the budget: ${formatBytes(f.kept)} of ${formatBytes(f.bytes)} kept`;
}

/** The lines naming cuts, refused imports and held-back changes of `files`. */
function problems(files: readonly InstructionFile[], maxBytes: number): string[] {
  const lines: string[] = [];
  for (const f of files) {
    const cut = cutWords(f);
    if (cut) lines.push(`- ${f.shown}: ${cut} (instructions.maxBytes is ${maxBytes})`);
    for (const r of f.refused) lines.push(`- ${r.from}: import ${r.target} refused: ${r.problem}`);
    if (f.unseenChange)
      lines.push(
        `- ${f.shown}: changed by Cogito this session; not applied until the user has seen it${f.text ? ' (the version before the change applies)' : ''}`,
      );
  }
  return lines;
}

/**
 * The system prompt's section: the files in load order (the user's own, then the outermost
 * folder down to the workspace), then what was cut or refused. Empty with no files.
 */
export function promptSection(files: readonly InstructionFile[], maxBytes: number): string {
  if (files.length === 0) return '';
  const blocks = files
    .filter((f) => f.text !== '')
    .map((f) => `## ${f.shown} (${ORIGIN[f.origin]})\n${f.text}`);
  const notes = problems(files, maxBytes);
  return [
    '# Workspace instructions',
    "These are the user's instruction files for this workspace: the user's own words, not content from outside. Follow them. Where they disagree, a file nearer the workspace (later here) wins over an earlier one. A subfolder's instruction file reaches you with the first tool result from that subfolder.",
    ...blocks,
    ...(notes.length > 0 ? ['## Not applied in full', ...notes] : []),
  ].join('\n\n');
}

/** A subfolder's file as it goes out after a tool's result. */
export function nestedNote(f: InstructionFile, again: boolean, maxBytes: number): string {
  const what = again
    ? 'changed since you last saw it'
    : 'loaded because this call touched its folder';
  const head = `[Instructions for ${f.shown.replace(/\/[^/]+$/, '/')} from ${f.shown} (${what}): the user's instruction file for that folder, not content from outside. Follow it for work there.]`;
  const notes = problems([f], maxBytes);
  return [head, ...(f.text ? [f.text] : []), ...notes, `[End of ${f.shown}]`].join('\n');
}
