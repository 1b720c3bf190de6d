/**
 * `remember(fact, replaces?, reason?)`: the model keeps a fact about this folder for later
 * sessions, or tidies the facts kept (merges entries into one, drops stale ones). During the
 * user's own turn it is applied at once; in an autonomous turn it waits in the user's
 * `/memory` inbox (src/knowledge/folderMemory.ts has the rules).
 */
import { MEMORY_LIMITS } from '../knowledge/memoryFile.js';
import type { FolderMemory } from '../knowledge/folderMemory.js';
import { parseNumbers } from '../knowledge/memoryProposals.js';
import type { Tool, ToolArg, ToolContext, ToolResult } from './types.js';
import { fail, ok } from './types.js';

/** Creates the `remember` tool over the folder's memory. */
export function createRememberTool(memory: FolderMemory): Tool {
  return {
    name: 'remember',
    description: `Keep one lasting fact about this folder or the user's wishes for future sessions (e.g. "Reports here are written in French"), one short sentence, at most ${MEMORY_LIMITS.maxFactChars} characters. Never a secret. To tidy the memory (its entries are numbered in your instructions): merge entries into one with remember("merged fact", "2,5", "why"), drop stale ones with remember("", "3", "why"). Outside the user's turn it waits for the user's approval.`,
    // It changes nothing in the workspace; what it keeps is shown, capped and undoable, and
    // outside the user's turn it only proposes.
    kind: 'read',
    params: [
      { name: 'fact', type: 'string', description: 'the fact, one short sentence ("" to drop)' },
      {
        name: 'replaces',
        type: 'string',
        optional: true,
        description: 'memory entry numbers this fact replaces, e.g. "2,5"',
      },
      { name: 'reason', type: 'string', optional: true, description: 'why merge or drop' },
    ],
    run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const apply = ctx.change?.trigger === 'user';
      const opts = {
        apply,
        source: apply ? ('user turn' as const) : ('autonomous' as const),
        ...(ctx.redact ? { redact: ctx.redact } : {}),
      };
      const [fact, replaces, reason] = args.map((a) => (a === null ? undefined : String(a)));
      if (replaces !== undefined && replaces.trim() !== '')
        return Promise.resolve(tidy(memory, fact ?? '', replaces, reason, opts));
      const out = memory.remember(fact ?? '', opts);
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

/** A merge (`fact` given) or a drop (`fact` empty) of the entries numbered in `replaces`. */
function tidy(
  memory: FolderMemory,
  fact: string,
  replaces: string,
  reason: string | undefined,
  opts: Parameters<FolderMemory['tidy']>[1],
): ToolResult {
  const numbers = parseNumbers(replaces);
  if (numbers === undefined)
    return fail(
      'invalid_args',
      `replaces must be entry numbers from the memory list in your instructions, e.g. "2,5"; got "${replaces}".`,
    );
  const out = memory.tidy(
    {
      replaces: numbers,
      ...(fact.trim() !== '' ? { text: fact } : {}),
      ...(reason !== undefined ? { reason } : {}),
    },
    opts,
  );
  if (out.kind === 'refused') return fail('invalid_args', out.message);
  if (out.kind === 'inbox')
    return ok(
      `Proposed to the user: ${out.what}. It waits in their /memory inbox (${out.count} waiting) until they accept it; the memory is unchanged until then.`,
      'remember → inbox',
    );
  return ok(
    `Memory tidied (${out.count} entries now): ${out.what}. The user can take it back with /undo.`,
    'remember (tidy)',
  );
}
