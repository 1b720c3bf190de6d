/** `mkdir(path)`: makes a folder and any missing parents; an existing folder is fine. */
import type { Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { fsFailure, q, resolvePath, strArg } from './common.js';
import { mkdirInside } from './pinned.js';

/** Creates the `mkdir` tool. */
export function createMkdirTool(deps?: FileToolDeps): Tool {
  const { fs } = resolveDeps(deps);
  return {
    name: 'mkdir',
    description: 'Make a folder, including missing parent folders.',
    kind: 'write',
    params: [{ name: 'path', type: 'string', description: 'folder to make' }],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const r = await resolvePath(ctx, strArg(args, 0), { access: 'write' });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      try {
        const st = await fs.stat(abs).catch(() => undefined);
        if (st?.isDirectory() === true)
          return ok(`${rel}/ already exists.`, `mkdir ${rel}: exists`);
        if (st !== undefined) {
          return fail('exists', `${q(rel)} already exists as a file. Choose another folder name.`);
        }
        await (await mkdirInside(ctx.workspace, abs)).close();
      } catch (e) {
        return fsFailure(e, rel, 'make folder');
      }
      return ok(`Made folder ${rel}/.`, `mkdir ${rel}`);
    },
  };
}
