/** `move(src, dst)`: moves or renames a file or folder; never overwrites. */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { fsFailure, q } from './common.js';
import { resolveEndpoints } from './transfer.js';
import { renameInside } from './pinned.js';
import { transferNeed } from './protection.js';

/** Creates the `move` tool. */
export function createMoveTool(deps?: FileToolDeps): Tool {
  const { fs } = resolveDeps(deps);
  return {
    name: 'move',
    description: 'Move or rename a file or folder (parent folders are made). Never overwrites.',
    kind: 'write',
    params: [
      { name: 'src', type: 'string', description: 'what to move' },
      { name: 'dst', type: 'string', description: 'the new path (must not exist)' },
    ],
    needsApproval: (args, ctx) => transferNeed(ctx, args),
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const ends = await resolveEndpoints('move', args, ctx, fs);
      if (!ends.ok) return ends.result;
      const { src, dst } = ends;
      if (dst.rel.startsWith(`${src.rel}/`)) {
        return fail('invalid_args', `Cannot move ${q(src.rel)} into itself (${q(dst.rel)}).`);
      }
      try {
        await renameInside(ctx.workspace, src.abs, dst.abs);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') return fsFailure(e, src.rel, 'move');
        // Another file system mounted inside the workspace: copy, then remove the original.
        try {
          await fs.cp(src.abs, dst.abs, {
            recursive: true,
            errorOnExist: true,
            force: false,
            verbatimSymlinks: true,
          });
          await fs.rm(src.abs, { recursive: true });
        } catch (e2) {
          return fsFailure(e2, src.rel, 'move');
        }
      }
      return ok(`Moved ${src.rel} to ${dst.rel}.`, `moved ${src.rel} → ${dst.rel}`);
    },
  };
}
