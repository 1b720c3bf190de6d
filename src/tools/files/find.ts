/**
 * `find(pattern)`: glob over the workspace. Symlinks are never followed, the usual huge or
 * private folders are skipped, and every hit is re-checked by the workspace resolver, so
 * no glob trick (braces, `..`, a symlinked folder named in the pattern) can list anything
 * outside.
 */
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileSystem, FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { abortedResult, formatSize, q, resolvePath, SKIPPED_DIRS, strArg } from './common.js';
import { documentSummary } from './documentView.js';
import type { DocumentReader } from '../../documents/reader.js';

/** At most this many paths are listed; the rest are counted. */
export const FIND_MAX_RESULTS = 200;

/** `..` as a whole segment, also inside a brace list such as `{..,src}`. */
const PARENT_SEGMENT = /(^|[/\\{,(|])\.\.([/\\},)|]|$)/;

/** Creates the `find` tool. */
export function createFindTool(deps?: FileToolDeps): Tool {
  const { fs, documents } = resolveDeps(deps);
  return {
    name: 'find',
    description: `Find files and folders by glob pattern relative to the workspace, e.g. "**/*.md" or "notes/*.{txt,md}"; a document is shown with its kind, size, pages and date. Skips ${SKIPPED_DIRS.join(', ')}; at most ${FIND_MAX_RESULTS} results.`,
    kind: 'read',
    params: [{ name: 'pattern', type: 'string', description: 'glob pattern' }],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const pattern = strArg(args, 0).trim();
      if (pattern === '') {
        return fail(
          'invalid_args',
          'The pattern is empty. Try "**/*" for everything or "**/*.md" for Markdown files.',
        );
      }
      if (PARENT_SEGMENT.test(pattern)) {
        return fail(
          'outside_workspace',
          `Pattern ${q(pattern)} climbs out with "..": only paths inside ${ctx.workspace.root} are allowed. Use a pattern relative to the workspace.`,
        );
      }
      // The same resolver as every other tool: refuses NUL, ~, URLs, drive/UNC forms and
      // a pattern whose fixed start leads through a symlink out of the workspace.
      const checked = await resolvePath(ctx, pattern);
      if (!checked.ok) return checked.result;
      const relPattern = await relativePattern(ctx, pattern);
      if (typeof relPattern !== 'string') return relPattern.result;

      const found = await glob(relPattern, {
        cwd: ctx.workspace.root,
        dot: true,
        followSymbolicLinks: false,
        onlyFiles: false,
        expandDirectories: false,
        caseSensitiveMatch: !ctx.workspace.caseInsensitive,
        ignore: SKIPPED_DIRS.flatMap((d) => [`**/${d}`, `**/${d}/**`]),
        signal: ctx.signal,
      });
      if (ctx.signal.aborted) return abortedResult('find');

      const hits = new Set<string>();
      // A literal name with glob characters, like "draft (1).txt", should still be found.
      if (isDynamicPattern(relPattern)) {
        const literal = await ctx.workspace.resolve(relPattern, { mustExist: true });
        if (literal.ok && literal.path.rel !== '.') hits.add(literal.path.rel);
      }
      for (const rel of found) {
        if (ctx.signal.aborted) return abortedResult('find');
        if ((await ctx.workspace.resolve(rel)).ok) hits.add(rel);
      }
      const sorted = [...hits].sort();
      const shown = await Promise.all(
        sorted.slice(0, FIND_MAX_RESULTS).map((rel) => withDocument(fs, documents, ctx, rel)),
      );
      return ok(render(pattern, shown, sorted.length), `find ${pattern}: ${hits.size} found`);
    },
  };
}

/**
 * An absolute pattern inside the workspace becomes relative to the root, so results are
 * always workspace-relative; a relative pattern is used as it is.
 */
async function relativePattern(
  ctx: ToolContext,
  pattern: string,
): Promise<string | { result: ToolResult }> {
  if (!/^[/\\]/.test(pattern) && !/^[A-Za-z]:/.test(pattern)) return pattern;
  const segments = pattern.split('/');
  const firstDynamic = segments.findIndex((s) => isDynamicPattern(s));
  const cut = firstDynamic === -1 ? segments.length : firstDynamic;
  const prefix = segments.slice(0, cut).join('/') || '/';
  const r = await resolvePath(ctx, prefix);
  if (!r.ok) return { result: r.result };
  const rest = segments.slice(cut);
  return [r.path.rel === '.' ? '' : r.path.rel, ...rest].filter(Boolean).join('/') || '.';
}

/** A hit, and for a document its kind, size, pages and date: `a.pdf  (PDF, 12 pages, 1.2 MB, 2026-03-01)`. */
async function withDocument(
  fs: FileSystem,
  documents: DocumentReader,
  ctx: ToolContext,
  rel: string,
): Promise<string> {
  const abs = path.join(ctx.workspace.root, rel);
  const st = await fs.lstat(abs).catch(() => undefined);
  if (st === undefined || !st.isFile()) return rel;
  const summary = await documentSummary(documents, {
    abs,
    rel,
    size: st.size,
    mtimeMs: st.mtimeMs,
  });
  if (summary === undefined) return rel;
  return `${rel}  (${summary}, ${formatSize(st.size)}, ${st.mtime.toISOString().slice(0, 10)})`;
}

function render(pattern: string, hits: readonly string[], total: number): string {
  if (hits.length === 0) {
    return `No files match ${q(pattern)}. Patterns are relative to the workspace; use "**/" to search subfolders.`;
  }
  const lines = [`${total} match${total === 1 ? '' : 'es'} for ${q(pattern)}:`, ...hits];
  const more = total - hits.length;
  if (more > 0) lines.push(`… ${more} more (narrow the pattern to see them)`);
  return lines.join('\n');
}
