/**
 * Helpers shared by the file tools: argument access, path resolution through the
 * workspace, file-system errors turned into results the model can act on, and sizes.
 */
import type { ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail } from '../types.js';
import type { ResolvedPath, ResolveOptions } from '../workspace.js';

/** Where `delete` puts things, inside the workspace, so nothing is ever unlinked. */
export const TRASH_DIR = '.cogito-trash';

/** Folders that find and grep never walk into: huge, generated, or ours. */
export const SKIPPED_DIRS: readonly string[] = ['node_modules', '.git', TRASH_DIR];

/** The string argument at `i` (the registry has already checked types). */
export function strArg(args: readonly ToolArg[], i: number, fallback = ''): string {
  const v = args[i];
  return typeof v === 'string' ? v : fallback;
}

/** The optional number argument at `i`; undefined when omitted or null. */
export function numArg(args: readonly ToolArg[], i: number): number | undefined {
  const v = args[i];
  return typeof v === 'number' ? v : undefined;
}

/** Either the resolved path or the failure to return as-is. */
type PathOrFail = { ok: true; path: ResolvedPath } | { ok: false; result: ToolResult };

/** Resolves a path argument through the workspace's single resolver. */
export async function resolvePath(
  ctx: ToolContext,
  input: string,
  opts: ResolveOptions = {},
): Promise<PathOrFail> {
  const r = await ctx.workspace.resolve(input, opts);
  return r.ok ? r : { ok: false, result: { ok: false, error: r.error } };
}

/**
 * For tools that take a whole folder along (copy, move, delete): refuses when Cogito's own
 * fenced-off files are inside it, so they cannot be carried out of the fence or trashed.
 */
export function refuseFencedWithin(
  ctx: ToolContext,
  tool: string,
  abs: string,
  rel: string,
): ToolResult | undefined {
  const what = ctx.workspace.fencedWithin(abs);
  if (what === undefined) return undefined;
  return fail(
    'denied',
    `${tool} cannot take ${q(rel)}: it holds ${what}. Work on the files beside it instead.`,
  );
}

/** The `aborted` result for a tool stopped by the turn's signal. */
export function abortedResult(tool: string): ToolResult {
  return fail('aborted', `${tool} stopped: the turn was interrupted.`);
}

/** Turns a Node file-system error into a result naming the path and what to do. */
export function fsFailure(e: unknown, rel: string, action: string): ToolResult {
  const err = e as NodeJS.ErrnoException | undefined;
  switch (err?.code) {
    case 'ECOGITOESCAPE':
      return fail(
        'outside_workspace',
        `Cannot ${action} "${rel}": ${err?.message ?? 'it leads outside'}; a folder on the path changed after it was checked. Nothing was done.`,
      );
    case 'EFBIG':
      return fail('too_large', `Cannot ${action} "${rel}": it ${err?.message ?? 'is too large'}.`);
    case 'ENOENT':
      return fail('not_found', `Cannot ${action} "${rel}": it does not exist. Check with ls.`);
    case 'EEXIST':
    case 'ERR_FS_CP_EEXIST':
      return fail('exists', `Cannot ${action} "${rel}": something already exists there.`);
    case 'EACCES':
    case 'EPERM':
      return fail('io', `Cannot ${action} "${rel}": permission denied by the operating system.`);
    case 'EISDIR':
      return fail('invalid_args', `Cannot ${action} "${rel}": it is a folder.`);
    case 'ENOTDIR':
      return fail(
        'invalid_args',
        `Cannot ${action} "${rel}": part of the path is a file, not a folder.`,
      );
    case 'ENOSPC':
      return fail('io', `Cannot ${action} "${rel}": the disk is full.`);
    case 'ABORT_ERR':
      return fail(
        'aborted',
        `Stopped while trying to ${action} "${rel}": the turn was interrupted.`,
      );
    default: {
      const detail = e instanceof Error ? e.message : String(e);
      return fail('io', `Cannot ${action} "${rel}": ${detail}`);
    }
  }
}

/** A human size: `512 B`, `1.5 KB`, `3.2 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** Quotes a path for messages and for example calls the model can copy. */
export function q(rel: string): string {
  return JSON.stringify(rel);
}
