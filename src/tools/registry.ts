/**
 * The tool registry: the single list of tools the agent can call. It checks every call
 * against the tool's declared params before running it, turns throws into error results,
 * and generates the tool list for the system prompt, so the prompt can never drift from
 * what actually runs. It is filled by its constructor, never as an import side effect;
 * sources (MCP servers) may add tools that come and go at run time.
 */
import type { Tool, ToolArg, ToolContext, ToolError, ToolParam, ToolResult } from './types.js';
import { editDistance } from '../core/editDistance.js';

/** A finished call: the result the model sees (the tool log times the call itself). */
interface ToolCallOutcome {
  result: ToolResult;
}

/**
 * Tools that change at run time (an MCP server's list). `list()` must be cheap and return
 * the same order each time, so the prompt generated from it only changes when the tools do.
 */
export interface ToolSource {
  list(): readonly Tool[];
}

/** Holds the tools, validates calls and runs them. */
export class ToolRegistry {
  private readonly fixed: readonly Tool[];
  private readonly byName: ReadonlyMap<string, Tool>;
  private readonly sources: readonly ToolSource[];

  /**
   * @param sources Run-time tools; their names must not clash with the fixed ones (MCP
   *   tools are prefixed `mcp__`), and a clashing one is ignored.
   * @throws Error when two tools share a name (a programming error, not a model error).
   */
  constructor(tools: Tool[], sources: readonly ToolSource[] = []) {
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        throw new Error(`Duplicate tool name "${tool.name}": every tool needs a unique name.`);
      }
      byName.set(tool.name, tool);
    }
    this.fixed = Object.freeze([...tools]);
    this.byName = byName;
    this.sources = [...sources];
  }

  get(name: string): Tool | undefined {
    const fixed = this.byName.get(name);
    if (fixed !== undefined || this.sources.length === 0) return fixed;
    return this.sourced().find((t) => t.name === name);
  }

  /** The fixed tools, then each source's tools in order. */
  list(): readonly Tool[] {
    return this.sources.length === 0 ? this.fixed : [...this.fixed, ...this.sourced()];
  }

  private sourced(): Tool[] {
    return this.sources.flatMap((s) => s.list()).filter((t) => !this.byName.has(t.name));
  }

  /**
   * Checks a call without running it: the tool must exist, the argument count must fit
   * the params, and each argument must have its param's type (`null` stands for an
   * omitted optional argument). Returns the error the model should see, or undefined.
   */
  validate(name: string, args: readonly ToolArg[]): ToolError | undefined {
    const tool = this.get(name);
    if (tool === undefined) {
      const known = this.list()
        .map((t) => t.name)
        .join(', ');
      const hint = this.closestName(name);
      const didYouMean = hint === undefined ? '' : ` Did you mean ${hint}?`;
      return {
        kind: 'invalid_args',
        message: `Unknown tool "${name}".${didYouMean} Known tools: ${known}.`,
      };
    }
    if (tool.checkArgs !== undefined) return tool.checkArgs(args);
    const required = tool.params.filter((p) => p.optional !== true).length;
    const max = tool.params.length;
    if (args.length < required || args.length > max) {
      const expected = required === max ? `${max}` : `${required} to ${max}`;
      const noun = max === 1 ? 'argument' : 'arguments';
      return {
        kind: 'invalid_args',
        message: `${name} takes ${expected} ${noun}, got ${args.length}. Call it as ${this.signature(name)}.`,
      };
    }
    for (const [i, param] of tool.params.entries()) {
      if (i >= args.length) break;
      const problem = typeProblem(param, args[i] ?? null);
      if (problem !== undefined) {
        return {
          kind: 'invalid_args',
          message: `Argument ${i + 1} (${param.name}) of ${name} ${problem}. Call it as ${this.signature(name)}.`,
        };
      }
    }
    return undefined;
  }

  /**
   * Validates and runs a call. Never throws: an unknown tool or bad arguments give an
   * `invalid_args` result, an already-aborted signal gives `aborted` without running the
   * tool, and a throw from the tool gives `unknown` (or `aborted` when the throw came
   * from the turn's signal).
   */
  async run(name: string, args: readonly ToolArg[], ctx: ToolContext): Promise<ToolCallOutcome> {
    return { result: await this.runChecked(name, args, ctx) };
  }

  /**
   * The tool list for the system prompt, one line per tool:
   * `name(path: string, offset?: number) — description [kind]`.
   */
  describeForPrompt(): string {
    return this.list()
      .map((t) => `${this.signature(t.name)} — ${t.description} [${t.kind}]`)
      .join('\n');
  }

  /** `read(path: string, offset?: number, limit?: number)`; an unknown name gives `name(?)`. */
  signature(name: string): string {
    const tool = this.get(name);
    if (tool === undefined) return `${name}(?)`;
    if (tool.signature !== undefined) return tool.signature;
    const params = tool.params.map((p) => `${p.name}${p.optional === true ? '?' : ''}: ${p.type}`);
    return `${name}(${params.join(', ')})`;
  }

  private async runChecked(
    name: string,
    args: readonly ToolArg[],
    ctx: ToolContext,
  ): Promise<ToolResult> {
    if (ctx.signal.aborted) return aborted(name);
    const invalid = this.validate(name, args);
    if (invalid !== undefined) return { ok: false, error: invalid };
    const tool = this.get(name);
    if (tool === undefined) return aborted(name); // unreachable: validate checked it
    try {
      return await tool.run(args, ctx);
    } catch (e) {
      if (ctx.signal.aborted) return aborted(name);
      const detail = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: { kind: 'unknown', message: `${name} failed unexpectedly: ${detail}` },
      };
    }
  }

  /** A known name that differs only in case or by one or two edits, to help the model recover. */
  private closestName(name: string): string | undefined {
    let best: { name: string; distance: number } | undefined;
    for (const tool of this.list()) {
      const d = editDistance(name.toLowerCase(), tool.name.toLowerCase());
      if (d <= 2 && (best === undefined || d < best.distance)) {
        best = { name: tool.name, distance: d };
      }
    }
    return best?.name;
  }
}

function aborted(name: string): ToolResult {
  return {
    ok: false,
    error: { kind: 'aborted', message: `${name} was not completed: the turn was interrupted.` },
  };
}

function typeProblem(param: ToolParam, value: ToolArg): string | undefined {
  if (value === null) {
    return param.optional === true ? undefined : `is required and cannot be null`;
  }
  if (typeof value === param.type) {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number';
    return undefined;
  }
  return `must be a ${param.type}, got ${describeValue(value)}`;
}

function describeValue(value: ToolArg): string {
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  return `the ${typeof value} ${String(value)}`;
}
