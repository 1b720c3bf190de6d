/**
 * `create(path, content)`: writes a new file, creating parent folders. It never overwrites
 * silently: `needsApproval` asks when the file exists, and only an approved call reaches
 * `run`, which then replaces the file atomically (a crash leaves old or new, never half).
 */
import type { ApprovalNeed, Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { formatSize, fsFailure, q, resolvePath, strArg } from './common.js';
import { writeNeed } from './protection.js';

/** Creates the `create` tool. */
export function createCreateTool(deps?: FileToolDeps): Tool {
  const { fs, writeAtomic } = resolveDeps(deps);

  async function existing(abs: string): Promise<{ dir: boolean; size: number } | undefined> {
    try {
      const st = await fs.stat(abs);
      return { dir: st.isDirectory(), size: st.size };
    } catch {
      return undefined;
    }
  }

  return {
    name: 'create',
    description:
      'Create a text file (UTF-8) with the given content, making parent folders. Asks before replacing an existing file.',
    kind: 'write',
    params: [
      { name: 'path', type: 'string', description: 'file to create' },
      { name: 'content', type: 'string', description: 'the full text of the file' },
    ],
    async needsApproval(
      args: readonly ToolArg[],
      ctx: ToolContext,
    ): Promise<string | ApprovalNeed | undefined> {
      const planted = await writeNeed(ctx, args, strArg(args, 1));
      if (planted !== undefined) return planted;
      const r = await resolvePath(ctx, strArg(args, 0));
      if (!r.ok) return undefined; // run() reports the problem
      const found = await existing(r.path.abs);
      if (found === undefined || found.dir) return undefined;
      return `create would overwrite the existing file ${q(r.path.rel)} (${formatSize(found.size)}).`;
    },
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const content = strArg(args, 1);
      const r = await resolvePath(ctx, strArg(args, 0), { access: 'write' });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      if (rel === '.') {
        return fail('invalid_args', 'create needs a file name, not the workspace root.');
      }
      const found = await existing(abs);
      if (found?.dir === true) {
        return fail(
          'exists',
          `${q(rel)} is a folder. Choose a file name, such as ${q(`${rel}/notes.md`)}.`,
        );
      }
      try {
        await writeAtomic(abs, content, ctx.workspace);
      } catch (e) {
        return fsFailure(e, rel, 'create');
      }
      const size = formatSize(Buffer.byteLength(content));
      const verb = found === undefined ? 'Created' : 'Overwrote';
      return ok(`${verb} ${rel} (${size}).`, `${verb.toLowerCase()} ${rel} (${size})`);
    },
  };
}
