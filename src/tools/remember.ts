/**
 * `remember(fact)`: the model keeps a fact about this folder for later sessions. During the
 * user's own turn it is applied at once; in an autonomous turn it waits in the user's
 * `/memory` inbox (src/knowledge/folderMemory.ts has the rules).
 */
import { MEMORY_LIMITS } from '../knowledge/memoryFile.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import type { Tool, ToolArg, ToolContext, ToolResult } from './types.js';
import { fail, ok } from './types.js';

/** Creates the `remember` tool over the folder's memory. */
export function createRememberTool(memory: FolderMemory): Tool {
  return {
    name: 'remember',
    description: `Keep one lasting fact about this folder or the user's wishes for future sessions (e.g. "Reports here are written in French"), one short sentence, at most ${MEMORY_LIMITS.maxFactChars} characters. Never a secret. Outside the user's turn it waits for the user's approval.`,
    // It changes nothing in the workspace; what it keeps is shown, capped and undoable, and
    // outside the user's turn it only proposes.
    kind: 'read',
    params: [{ name: 'fact', type: 'string', description: 'the fact, one short sentence' }],
    run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const apply = ctx.change?.trigger === 'user';
      const out = memory.remember(String(args[0]), {
        apply,
        source: apply ? 'user turn' : 'autonomous',
        ...(ctx.redact ? { redact: ctx.redact } : {}),
      });
      if (out.kind === 'refused') return Promise.resolve(fail('invalid_args', out.message));
      if (out.kind === 'inbox')
        return Promise.resolve(
          ok(
            `Proposed for memory: ${out.entry.text}. It waits in the user's /memory inbox (${out.count} waiting) until they accept it; it is not in your memory yet.`,
            'remember → inbox',
          ),
        );
      return Promise.resolve(
        ok(
          `Remembered (${out.count} of at most ${MEMORY_LIMITS.maxEntries} entries): ${out.entry.text}. It is in your system prompt from the next session (or the next compaction) on; the user can see it with /memory and take it back with /undo.`,
          'remember',
        ),
      );
    },
  };
}
