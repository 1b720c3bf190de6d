/**
 * `@path` imports inside an instruction file: `See @docs/style.md` pulls that file in after
 * the one that names it. The rules keep an instruction file from reaching what the user did
 * not mean to hand over: an import resolves through the workspace's own containment checks
 * (the shape check of pathShape.ts, then lexical and real-path containment with the
 * workspace's `relativeOf`, then its fence around Cogito's own files), so neither `..` nor a
 * symlink pointing out nor the settings file gets in; a refused import stays visible as a note.
 * An `@` inside a code span or a fenced block is an example, not an import. Depth is bounded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPathShape } from '../tools/pathShape.js';
import type { Workspace } from '../tools/workspace.js';

/** Imports nest this deep at most (an import of an import … five levels). */
export const MAX_IMPORT_DEPTH = 5;
/** A single imported file larger than this is refused (an instruction is never this long). */
const MAX_IMPORT_FILE_BYTES = 256 * 1024;

/** The folder imports must stay in, with its resolver's checks. */
export type ImportScope = Pick<Workspace, 'root' | 'relativeOf' | 'fencedBy'>;

/** One file pulled in by an import. */
export interface ImportedFile {
  /** As shown: relative to the scope's root. */
  shown: string;
  bytes: number;
}

/** An import that was not followed, and why: shown in the prompt and in /context. */
export interface RefusedImport {
  /** The file that named it, as shown. */
  from: string;
  /** The `@path` as written. */
  target: string;
  problem: string;
}

/** A file's text with its imports expanded, what was pulled in, and what was refused. */
export interface Expanded {
  text: string;
  imported: ImportedFile[];
  refused: RefusedImport[];
}

/**
 * The `@path` tokens of `text` outside code: an `@` at the start of a line or after a space
 * (so `me@example.com` is no import), followed by something that looks like a path (it has a
 * slash or a file extension, or starts with `~` or `.`), trailing punctuation left off.
 */
export function importTargets(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    for (const m of line.matchAll(/(?:^|[\s(])@([^\s`()]+)/g)) {
      const target = m[1]!.replace(/[.,;:!?'"\]]+$/, '');
      if (/[/\\]|\.[A-Za-z0-9]+$|^[~.]/.test(target)) out.push(target);
    }
  }
  return out;
}

/** The lines outside fenced blocks, with inline code spans blanked out. */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length)
        fence = undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    lines.push(line.replace(/(`+)[\s\S]*?\1/g, ' '));
  }
  return lines;
}

/**
 * Where `target`, named in a file in `baseDir`, lies inside `scope`; or why it may not be
 * read. Containment is judged twice, on the path as written and on its real path.
 */
export function resolveImport(
  scope: ImportScope,
  baseDir: string,
  target: string,
): { abs: string; shown: string } | { problem: string } {
  const shape = checkPathShape(target);
  const outside = `outside ${scope.root}, and imports must stay inside it`;
  if (shape !== undefined) return { problem: `${outside} (${shape})` };
  const abs = path.resolve(baseDir, target);
  if (scope.relativeOf(abs) === undefined) return { problem: outside };
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    return { problem: 'not found' };
  }
  const shown = scope.relativeOf(real);
  if (shown === undefined) return { problem: `${outside} (it leads through a symlink to ${real})` };
  const fenced = scope.fencedBy(real);
  if (fenced !== undefined) return { problem: `it is ${fenced}` };
  let st: fs.Stats;
  try {
    st = fs.statSync(real);
  } catch {
    return { problem: 'not found' };
  }
  if (!st.isFile()) return { problem: 'not a file' };
  if (st.size > MAX_IMPORT_FILE_BYTES)
    return {
      problem: `too large (${st.size} bytes; an import holds ${MAX_IMPORT_FILE_BYTES} at most)`,
    };
  return { abs: real, shown };
}

/**
 * `text` (of the file shown as `from`, in `baseDir`) with each import's file appended after
 * it, in order, imports of imports likewise up to {@link MAX_IMPORT_DEPTH}; a file is
 * included once. `seen` holds the real paths already included (the file itself among them).
 */
export function expandImports(
  text: string,
  from: string,
  baseDir: string,
  scope: ImportScope,
  seen: Set<string>,
  depth = 1,
): Expanded {
  const out: Expanded = { text, imported: [], refused: [] };
  for (const target of importTargets(text)) {
    const refuse = (problem: string): void =>
      void out.refused.push({ from, target: `@${target}`, problem });
    if (depth > MAX_IMPORT_DEPTH) {
      refuse(`imports nest ${MAX_IMPORT_DEPTH} deep at most`);
      continue;
    }
    const found = resolveImport(scope, baseDir, target);
    if ('problem' in found) {
      refuse(found.problem);
      continue;
    }
    if (seen.has(found.abs)) continue;
    seen.add(found.abs);
    let body: string;
    try {
      body = fs.readFileSync(found.abs, 'utf8');
    } catch (e) {
      refuse(`unreadable: ${(e as Error).message}`);
      continue;
    }
    const inner = expandImports(body, found.shown, path.dirname(found.abs), scope, seen, depth + 1);
    out.imported.push({ shown: found.shown, bytes: Buffer.byteLength(body) }, ...inner.imported);
    out.refused.push(...inner.refused);
    out.text += `\n\n(imported by ${from}: ${found.shown})\n${inner.text.trim()}`;
  }
  return out;
}
