/**
 * `delete(path)`: moves a file or folder into `.cogito-trash/<timestamp>-<name>` inside the
 * workspace instead of unlinking it, so every delete the model makes can be undone by hand.
 */
import path from 'node:path';
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileSystem, FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { fsFailure, q, refuseFencedWithin, resolvePath, strArg, TRASH_DIR } from './common.js';
import { mkdirInside, renameInside } from './pinned.js';
import { refuseProtectedWithin } from './protection.js';

/** Creates the `delete` tool. */
export function createDeleteTool(deps?: FileToolDeps): Tool {
  const { fs, now } = resolveDeps(deps);
  return {
    name: 'delete',
    description: `Delete a file or folder by moving it to ${TRASH_DIR}/ in the workspace (recoverable).`,
    kind: 'destructive',
    params: [{ name: 'path', type: 'string', description: 'file or folder to delete' }],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const r = await resolvePath(ctx, strArg(args, 0), { mustExist: true, access: 'write' });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      if (rel === '.') return fail('invalid_args', 'delete refuses to delete the workspace root.');
      const fenced =
        refuseFencedWithin(ctx, 'delete', abs, rel) ??
        (await refuseProtectedWithin(ctx, 'delete', abs, rel));
      if (fenced) return fenced;
      if (ctx.workspace.isUnder(rel, TRASH_DIR)) {
        return fail(
          'invalid_args',
          `${q(rel)} is in ${TRASH_DIR}/, where deleted files are kept; delete never empties it. The user can empty it by hand.`,
        );
      }
      // The trash goes through the resolver too: a user-made symlink there must not lead out.
      const t = await resolvePath(ctx, TRASH_DIR);
      if (!t.ok) return t.result;
      const trash = t.path.abs;
      try {
        await (await mkdirInside(ctx.workspace, trash, 'read')).close();
        const target = await freeName(fs, trash, `${stamp(now())}-${path.basename(abs)}`);
        await renameInside(ctx.workspace, abs, path.join(trash, target), 'read');
        const where = `${TRASH_DIR}/${target}`;
        return ok(
          `Deleted ${rel} (moved to ${where}; move it back to restore).`,
          `deleted ${rel} → ${where}`,
        );
      } catch (e) {
        return fsFailure(e, rel, 'delete');
      }
    },
  };
}

/** `20240501-101500-123`: sortable, and safe in file names on every platform. */
function stamp(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${p(d.getMilliseconds(), 3)}`;
}

/** Adds `-2`, `-3` … when the same name was trashed in the same millisecond. */
async function freeName(fs: FileSystem, dir: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    try {
      await fs.lstat(path.join(dir, candidate));
    } catch {
      return candidate;
    }
  }
}
