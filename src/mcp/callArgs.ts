/**
 * Turns a text-protocol call's arguments into an MCP tool's input object. Positional
 * arguments fill the parameters in calling order (required first); a single string holding
 * a JSON object is taken as the whole input, for inputs positional values cannot express.
 */
import type { ToolArg } from '../tools/types.js';
import { inputProblem, isObject, type JsonSchema, type McpParam } from './inputSchema.js';

type InputResult = { ok: true; input: Record<string, unknown> } | { ok: false; problem: string };

/** Maps `args` to the input object and checks it against the schema's top level. */
export function buildInput(
  args: readonly ToolArg[],
  params: readonly McpParam[],
  schema: JsonSchema,
): InputResult {
  const closed = schema.additionalProperties === false;
  const whole = asWholeObject(args, params);
  if (whole !== undefined) {
    const problem = inputProblem(whole, params, closed);
    return problem === undefined ? { ok: true, input: whole } : { ok: false, problem };
  }
  if (args.length > params.length) {
    const takes = params.length === 1 ? '1 argument' : `${params.length} arguments`;
    return { ok: false, problem: `it takes at most ${takes}, got ${args.length}` };
  }
  const input: Record<string, unknown> = {};
  for (const [i, param] of params.entries()) {
    if (i >= args.length) break;
    const value = positional(args[i] ?? null, param);
    if (value !== undefined) input[param.name] = value;
  }
  const problem = inputProblem(input, params, closed);
  return problem === undefined ? { ok: true, input } : { ok: false, problem };
}

/**
 * A single string argument that parses to an object is the whole input, unless it reads
 * as a plain value for a string first parameter (its keys are not all parameter names).
 */
function asWholeObject(
  args: readonly ToolArg[],
  params: readonly McpParam[],
): Record<string, unknown> | undefined {
  const only = args[0];
  if (args.length !== 1 || typeof only !== 'string' || !only.trimStart().startsWith('{')) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(only);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const first = params[0];
  const firstTakesText = first !== undefined && first.types.includes('string');
  const keysKnown = Object.keys(parsed).every((k) => params.some((p) => p.name === k));
  if (firstTakesText && !(keysKnown && first.name in parsed)) return undefined;
  return parsed;
}

/**
 * One positional value: `null` for an optional parameter that does not take null means
 * "not given"; a string for an object or list parameter is read as JSON when it parses.
 */
function positional(value: ToolArg, param: McpParam): unknown {
  if (value === null) {
    return !param.required && !param.types.includes('null') ? undefined : null;
  }
  const structured = param.types.includes('object') || param.types.includes('array');
  if (typeof value === 'string' && structured && !param.types.includes('string')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value; // the type check then names the parameter
    }
  }
  return value;
}
