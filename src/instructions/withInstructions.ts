/**
 * The instruction files' one hook into the tools: a file tool's call that touches a subfolder
 * for the first time comes back with that subfolder's instruction file attached to its
 * result (`instructions`), which the tool runner appends after the result, outside any data
 * wrapping and past the result's own size cut. The tools themselves are unchanged.
 */
import type { Tool, ToolArg, ToolContext } from '../tools/types.js';

/** The subfolder instructions of the paths a call touched, as `InstructionSet.forPaths`. */
export interface NestedInstructions {
  forPaths(rels: readonly string[]): string | undefined;
}

/**
 * Which arguments of each file tool are paths (by position), and the default when one is
 * left out (`ls()` lists the root). `find` takes a glob: its literal folder part counts.
 */
const PATH_ARGS: Readonly<Record<string, readonly number[]>> = {
  ls: [0],
  read: [0],
  grep: [1],
  create: [0],
  edit: [0],
  mkdir: [0],
  delete: [0],
  copy: [0, 1],
  move: [0, 1],
  find: [0],
};

/** Wraps the tools that take paths; others are returned as they are. */
export function withInstructions(tools: readonly Tool[], nested: NestedInstructions): Tool[] {
  return tools.map((tool) => {
    const at = PATH_ARGS[tool.name];
    return at ? wrapped(tool, at, nested) : tool;
  });
}

function wrapped(tool: Tool, at: readonly number[], nested: NestedInstructions): Tool {
  return {
    ...tool,
    async run(args, ctx) {
      const result = await tool.run(args, ctx);
      // A failed call leaves its folders unchecked: the next call there brings their file.
      if (!result.ok) return result;
      const rels = await touched(tool.name, args, at, ctx);
      const note = rels.length > 0 ? nested.forPaths(rels) : undefined;
      return note === undefined ? result : { ...result, instructions: note };
    },
  };
}

/** The workspace-relative paths a call's arguments name, through the workspace's resolver. */
async function touched(
  name: string,
  args: readonly ToolArg[],
  at: readonly number[],
  ctx: ToolContext,
): Promise<string[]> {
  const out: string[] = [];
  for (const i of at) {
    const arg = args[i];
    let p = typeof arg === 'string' && arg.trim() !== '' ? arg : undefined;
    if (name === 'find' && p !== undefined) p = globFolder(p);
    if (p === undefined) continue;
    const r = await ctx.workspace.resolve(p);
    if (r.ok) out.push(r.path.rel);
  }
  return out;
}

/** The folder part of a glob before its first wildcard: `docs/**\/*.md` gives `docs`. */
function globFolder(glob: string): string | undefined {
  const wild = glob.search(/[*?[{]/);
  const literal = wild === -1 ? glob : glob.slice(0, wild);
  const slash = literal.lastIndexOf('/');
  return slash <= 0 ? undefined : literal.slice(0, slash);
}
