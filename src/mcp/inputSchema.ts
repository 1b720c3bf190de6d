/**
 * An MCP tool's input schema (JSON Schema, an object) seen the way Cogito's text protocol
 * needs it: an ordered parameter list (required first, each group in declared order) and a
 * top-level check whose errors name the parameter, so the model can fix its call.
 */

/** The parts of a JSON Schema this module reads; anything else is left to the server. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: unknown;
}

/** One parameter as the model sees it. */
export interface McpParam {
  name: string;
  /** The JSON Schema types allowed; empty means any. */
  types: readonly string[];
  required: boolean;
  description?: string;
  enum?: readonly unknown[];
}

/** The parameters in calling order: required ones first, each group in declared order. */
export function orderedParams(schema: JsonSchema): McpParam[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = [...Object.keys(props)];
  for (const name of required) if (!names.includes(name)) names.push(name);
  const params = names.map((name): McpParam => {
    const prop: JsonSchema = isObject(props[name]) ? (props[name] as JsonSchema) : {};
    const types = typeof prop.type === 'string' ? [prop.type] : (prop.type ?? []);
    return {
      name,
      types: types.filter((t) => typeof t === 'string'),
      required: required.has(name),
      ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
      ...(Array.isArray(prop.enum) ? { enum: prop.enum } : {}),
    };
  });
  return [...params.filter((p) => p.required), ...params.filter((p) => !p.required)];
}

/**
 * The first problem with `input` against the schema's top level, naming the parameter:
 * a missing required one, a wrong type, a value outside `enum`, or an unknown name when
 * the schema forbids extra properties. Nested structure is the server's to check.
 */
export function inputProblem(
  input: Record<string, unknown>,
  params: readonly McpParam[],
  closed: boolean,
): string | undefined {
  for (const p of params) {
    const value = input[p.name];
    if (value === undefined) {
      if (p.required) return `parameter "${p.name}" is required but was not given`;
      continue;
    }
    if (p.types.length > 0 && !p.types.some((t) => hasType(value, t))) {
      return `parameter "${p.name}" must be ${p.types.join(' or ')}, got ${describe(value)}`;
    }
    if (p.enum !== undefined && !p.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
      const allowed = p.enum.map((e) => JSON.stringify(e)).join(', ');
      return `parameter "${p.name}" must be one of ${allowed}, got ${describe(value)}`;
    }
  }
  if (closed) {
    const unknown = Object.keys(input).find((k) => !params.some((p) => p.name === k));
    if (unknown !== undefined) {
      const known = params.map((p) => p.name).join(', ') || 'none';
      return `parameter "${unknown}" is not one this tool takes (it takes: ${known})`;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true; // a type this check does not know: the server decides
  }
}

/** A value for an error message, kept short. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  return `the ${typeof value} ${String(value)}`;
}

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
