import type { z } from 'zod';
import { closeMatches } from './suggest.js';
import { SECRET_FIELDS, configSchema, defaultConfig } from './schema.js';

/** One thing wrong with the configuration, phrased for a person to act on. */
export interface ConfigIssue {
  /** Dotted path of the setting (`approval.write`), or `(file)` for the file as a whole. */
  field: string;
  /** What is wrong, e.g. `must be a whole number ≥ 0, got the text "3000"`. */
  problem: string;
  /** What to do about it, e.g. `Remove the quotes: "thinkIntervalMs": 3000`. */
  fix: string;
  /** 1-based position in the file, for JSON syntax errors. */
  line?: number;
  column?: number;
  /** The flag or variable the value came from (`--workspace`), when not the file. */
  origin?: string;
}

/** Where a top-level value came from, when not the file: shown after the problem. */
export type OriginLabels = Partial<Record<string, string>>;

/** Turns zod's issues into ConfigIssues, reading the offending values from `input`. */
export function toConfigIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  origins: OriginLabels = {},
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(unknownKey([...path, key]));
      continue;
    }
    const field = path.join('.');
    const made = describe(issue, field, valueAt(input, path));
    const origin = origins[path[0] ?? ''];
    if (origin !== undefined) {
      made.problem += ` (from ${origin})`;
      made.origin = origin;
    }
    out.push(made);
  }
  return out;
}

function describe(issue: z.core.$ZodIssue, field: string, value: unknown): ConfigIssue {
  const shown = showValue(value, SECRET_FIELDS.has(field));
  const example = exampleFor(field);
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(field, issue.expected, value, shown, example);
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v));
      const guess = typeof value === 'string' ? closeMatches(value, issue.values.map(String)) : [];
      const hint = guess[0] === undefined ? '' : ` Did you mean "${guess[0]}"?`;
      return {
        field,
        problem: `${quoted(value, shown)} is not one of the allowed values`,
        fix: `Use one of: ${allowed.join(', ')}.${hint}`,
      };
    }
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'string' && issue.code === 'too_small') {
        return {
          field,
          problem: 'is empty',
          fix: `Write a value, or remove "${leaf(field)}" to use the default${example ? ` (${example})` : ''}.`,
        };
      }
      const range = rangeText(field);
      return {
        field,
        problem: `must be ${range}, got ${shown}`,
        fix: `Use ${range}${example ? `, e.g. ${example} (the default)` : ''}.`,
      };
    }
    case 'invalid_format':
      if (issue.format === 'url') {
        return {
          field,
          problem: `${quoted(value, shown)} is not a web address starting with http:// or https://`,
          fix: `Write the full address with its scheme, e.g. ${URL_EXAMPLES[field] ?? 'https://example.com'}.`,
        };
      }
      return {
        field,
        problem: `${shown} is not a valid ${issue.format}`,
        fix: 'Correct the value.',
      };
    case 'custom': {
      const fix = (issue.params as { fix?: unknown } | undefined)?.fix;
      return { field, problem: issue.message, fix: typeof fix === 'string' ? fix : 'Correct it.' };
    }
    default:
      return { field, problem: issue.message, fix: 'Correct the value or remove it.' };
  }
}

function invalidType(
  field: string,
  expected: string,
  value: unknown,
  shown: string,
  example: string | undefined,
): ConfigIssue {
  const eg = example ? `, e.g. ${example}` : '';
  if (value === undefined) {
    return { field, problem: 'is missing', fix: `Add "${leaf(field)}"${eg}.` };
  }
  if (expected === 'int' || expected === 'number') {
    const what = expected === 'int' || isIntegerField(field) ? 'a whole number' : 'a number';
    const numeric = typeof value === 'string' && value.trim() !== '' && Number.isFinite(+value);
    return {
      field,
      problem: `must be ${what}, got ${shown}`,
      fix: numeric
        ? `Remove the quotes: "${leaf(field)}": ${Number(value)}.`
        : `Use ${rangeText(field)}${eg}.`,
    };
  }
  if (expected === 'boolean') {
    const quoted = value === 'true' || value === 'false';
    return {
      field,
      problem: `must be true or false, got ${shown}`,
      fix: quoted
        ? `Remove the quotes: "${leaf(field)}": ${String(value)}.`
        : 'Write true or false.',
    };
  }
  if (expected === 'string') {
    return {
      field,
      problem: `must be text in double quotes, got ${shown}`,
      fix: `Put the value in double quotes${eg}.`,
    };
  }
  if (expected === 'array') {
    return {
      field,
      problem: `must be a list [ ... ], got ${shown}`,
      fix: `Write it as a list in square brackets, e.g. ["-y", "some-package"].`,
    };
  }
  if (expected === 'object' || expected === 'record') {
    return {
      field,
      problem: `must be an object { ... }, got ${shown}`,
      fix: `Write it as an object${eg}, or remove it to use the defaults.`,
    };
  }
  return { field, problem: `must be ${expected}, got ${shown}`, fix: `Use ${expected}${eg}.` };
}

function unknownKey(path: string[]): ConfigIssue {
  const key = path[path.length - 1] ?? '';
  const parent = path.slice(0, -1);
  const known = knownKeysAt(parent);
  const guesses = closeMatches(key, known);
  const where = parent.length === 0 ? '' : ` in "${parent.join('.')}"`;
  const fix =
    guesses.length > 0
      ? `Did you mean ${guesses.map((g) => `"${g}"`).join(' or ')}? Rename the key, or remove it.`
      : `Remove it. Known settings${where}: ${known.join(', ')}.`;
  return { field: path.join('.'), problem: `unknown setting${where}`, fix };
}

/** The keys the schema accepts at `path` (empty for the top level). */
function knownKeysAt(path: readonly string[]): string[] {
  return Object.keys(objectShape(knownSchemaAt(path)) ?? {});
}

/** The schema of one setting, with optional / default / prefault wrappers peeled off. */
function leafSchema(field: string): z.core.$ZodType | undefined {
  const keys = field.split('.');
  const last = keys.pop() ?? '';
  return unwrap(objectShape(knownSchemaAt(keys))?.[last]);
}

function knownSchemaAt(path: readonly string[]): z.core.$ZodType | undefined {
  let schema: z.core.$ZodType | undefined = configSchema;
  for (const key of path) {
    // Inside a record (mcpServers.<name>) every key has the record's value schema.
    const def = unwrap(schema)?._zod.def as AnyDef | undefined;
    schema = def?.type === 'record' ? def.valueType : objectShape(schema)?.[key];
  }
  return schema;
}

/** zod reports `expected: number` for a string given to an int field; the schema knows. */
function isIntegerField(field: string): boolean {
  const def = leafSchema(field)?._zod.def as { format?: string } | undefined;
  return def?.format?.includes('int') ?? false;
}

type AnyDef = {
  type: string;
  innerType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
};

function unwrap(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let s = schema;
  for (let i = 0; s !== undefined && i < 5; i++) {
    const def = s._zod.def as AnyDef;
    if (def.innerType === undefined) return s;
    s = def.innerType;
  }
  return s;
}

function objectShape(
  schema: z.core.$ZodType | undefined,
): Record<string, z.core.$ZodType> | undefined {
  const def = unwrap(schema)?._zod.def as AnyDef | undefined;
  return def?.type === 'object' ? def.shape : undefined;
}

const URL_EXAMPLES: Record<string, string> = {
  baseURL: 'https://api.deepseek.com/v1 (or http://localhost:11434/v1 for Ollama)',
  'search.searxngUrl': 'http://localhost:8888',
};

/** Human range per numeric field, matching the schema's bounds. */
const RANGES: Record<string, string> = {
  compressAt: 'a number between 0 and 1 (exclusive)',
  'search.maxResults': 'a whole number from 1 to 50',
  'watch.resumeAfterWaitMs':
    'a whole number of milliseconds ≥ 0 (0 = a question waits for the user alone)',
};
const NON_NEGATIVE = new Set(['thinkIntervalMs', 'maxAutonomousCycles', 'tokenBudgetPerHour']);

function rangeText(field: string): string {
  const explicit = RANGES[field];
  if (explicit !== undefined) return explicit;
  if (NON_NEGATIVE.has(field)) {
    const zero =
      field === 'maxAutonomousCycles'
        ? ' (0 = unlimited)'
        : field === 'tokenBudgetPerHour'
          ? ' (0 = no budget)'
          : '';
    return `a whole number ≥ 0${zero}`;
  }
  return 'a whole number ≥ 1';
}

function exampleFor(field: string): string | undefined {
  const value = valueAt(defaultConfig(), field.split('.'));
  if (value === undefined) return undefined;
  return JSON.stringify(value);
}

function leaf(field: string): string {
  return field.split('.').pop() ?? field;
}

/** Reads a nested value by path, or undefined. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** A string value as written in JSON (`"ollama"`); anything else as {@link showValue}. */
function quoted(value: unknown, shown: string): string {
  return typeof value === 'string' ? JSON.stringify(value) : shown;
}

/** Describes a value for a message; secrets are described by type only. */
function showValue(value: unknown, secret = false): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list [...]';
  switch (typeof value) {
    case 'string': {
      if (secret) return 'a text value';
      const cut = value.length > 60 ? `${value.slice(0, 57)}...` : value;
      return `the text ${JSON.stringify(cut)}`;
    }
    case 'number':
    case 'boolean':
      return secret
        ? `a ${typeof value}`
        : `${typeof value === 'number' ? 'the number ' : ''}${String(value)}`;
    case 'object':
      return 'an object { ... }';
    default:
      return typeof value;
  }
}
