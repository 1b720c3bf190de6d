/** `copy(src, dst)`: copies a file or folder to a new place; never overwrites. */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { fsFailure, q } from './common.js';
import { resolveEndpoints } from './transfer.js';
import { copyInside } from './pinned.js';
import { transferNeed } from './protection.js';

/** Creates the `copy` tool. */
export function createCopyTool(deps?: FileToolDeps): Tool {
  const { fs } = resolveDeps(deps);
  return {
    name: 'copy',
    description: 'Copy a file or folder to a new path (parent folders are made). Never overwrites.',
    kind: 'write',
    params: [
      { name: 'src', type: 'string', description: 'what to copy' },
      { name: 'dst', type: 'string', description: 'the new path (must not exist)' },
    ],
    needsApproval: (args, ctx) => transferNeed(ctx, args),
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const ends = await resolveEndpoints('copy', args, ctx, fs);
      if (!ends.ok) return ends.result;
      const { src, dst } = ends;
      if (dst.rel.startsWith(`${src.rel}/`)) {
        return fail('invalid_args', `Cannot copy ${q(src.rel)} into itself (${q(dst.rel)}).`);
      }
      try {
        // Through verified folder handles; a link is copied as the same link, never
        // resolved into a copy of whatever it points at (which could be outside).
        await copyInside(ctx.workspace, src.abs, dst.abs);
      } catch (e) {
        return fsFailure(e, dst.rel, 'copy to');
      }
      return ok(`Copied ${src.rel} to ${dst.rel}.`, `copied ${src.rel} → ${dst.rel}`);
    },
  };
}
