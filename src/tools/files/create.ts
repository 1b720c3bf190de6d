/**
 * `create(path, content)`: writes a new file, creating parent folders. It never overwrites
 * silently: `needsApproval` asks when the file exists, and only an approved call reaches
 * `run`, which then replaces the file atomically (a crash leaves old or new, never half).
 */
import type { ApprovalNeed, Tool, ToolArg, ToolContext, ToolResult } from '../types.js';
import { fail, okWithDiff } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { formatSize, fsFailure, q, resolvePath, strArg } from './common.js';
import { writeNeed } from './protection.js';
import { changeView, currentText, shownDiff } from './changeView.js';
import { t } from '../../i18n/messages.js';

/** Creates the `create` tool. */
export function createCreateTool(deps?: FileToolDeps): Tool {
  const { fs, writeAtomic, readWhole } = resolveDeps(deps);

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
      const content = strArg(args, 1);
      const planted = await writeNeed(ctx, args, content);
      const r = await resolvePath(ctx, strArg(args, 0));
      if (!r.ok) return planted; // run() reports the problem
      const found = await existing(r.path.abs);
      if (found?.dir === true) return planted;
      // The card shows the change against the file as it is now, or the new file whole.
      const now =
        found === undefined ? undefined : await currentText(r.path.abs, ctx, { fs, readWhole });
      const view = changeView(r.path.rel, now, content, ctx);
      if (planted !== undefined) return { ...planted, ...view };
      if (found === undefined) return view;
      const size = formatSize(found.size);
      return {
        reason: t(ctx.lang ?? 'en', 'reason.overwrite', { path: q(r.path.rel), size }),
        ...view,
      };
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
      const before =
        found === undefined ? undefined : await currentText(abs, ctx, { fs, readWhole });
      try {
        await writeAtomic(abs, content, ctx.workspace);
      } catch (e) {
        return fsFailure(e, rel, 'create');
      }
      const size = formatSize(Buffer.byteLength(content));
      const verb = found === undefined ? 'Created' : 'Overwrote';
      // The tool detail shows what an overwrite changed.
      const diff =
        before !== undefined && 'text' in before
          ? shownDiff(rel, before.text, content, ctx)
          : undefined;
      return okWithDiff(
        `${verb} ${rel} (${size}).`,
        `${verb.toLowerCase()} ${rel} (${size})`,
        diff,
      );
    },
  };
}
