/**
 * What copy and move share: resolving a source that must exist and a destination that
 * must not, with errors that say which side is wrong.
 */
import path from 'node:path';
import type { ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail } from '../types.js';
import type { ResolvedPath } from '../workspace.js';
import type { FileSystem } from './deps.js';
import { q, refuseFencedWithin, resolvePath, strArg, TRASH_DIR } from './common.js';
import { refuseProtectedWithin } from './protection.js';

type Endpoints =
  { ok: true; src: ResolvedPath; dst: ResolvedPath } | { ok: false; result: ToolResult };

/** Resolves `(src, dst)` and checks the destination is free and its parent can be made. */
export async function resolveEndpoints(
  tool: string,
  args: readonly ToolArg[],
  ctx: ToolContext,
  fs: FileSystem,
): Promise<Endpoints> {
  // move takes the source away, so it is a write there too.
  const srcAccess = tool === 'move' ? 'write' : 'read';
  const src = await resolvePath(ctx, strArg(args, 0), { mustExist: true, access: srcAccess });
  if (!src.ok) return src;
  const fenced = refuseFencedWithin(ctx, tool, src.path.abs, src.path.rel);
  if (fenced) return { ok: false, result: fenced };
  const dst = await resolvePath(ctx, strArg(args, 1), { access: 'write' });
  if (!dst.ok) return dst;
  const carried =
    (await refuseProtectedWithin(ctx, tool, src.path.abs, dst.path.rel)) ??
    (tool === 'move'
      ? await refuseProtectedWithin(ctx, tool, src.path.abs, src.path.rel)
      : undefined);
  if (carried) return { ok: false, result: carried };
  if (src.path.rel === '.') {
    return {
      ok: false,
      result: fail('invalid_args', `${tool} cannot take the workspace root itself.`),
    };
  }
  if (
    ctx.workspace.isUnder(dst.path.rel, TRASH_DIR) ||
    ctx.workspace.isUnder(src.path.rel, TRASH_DIR)
  ) {
    return {
      ok: false,
      result: fail(
        'invalid_args',
        `${tool} does not work on ${TRASH_DIR}/, where deleted files are kept.`,
      ),
    };
  }
  if (dst.path.rel === '.' || (await present(fs, dst.path.abs))) {
    const suggestion = path.posix.join(dst.path.rel, path.posix.basename(src.path.rel));
    return {
      ok: false,
      result: fail(
        'exists',
        `The destination ${q(dst.path.rel)} already exists and ${tool} never overwrites. Give a new name; to put it inside that folder, use ${q(suggestion)}.`,
      ),
    };
  }
  return { ok: true, src: src.path, dst: dst.path };
}

async function present(fs: FileSystem, abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}
