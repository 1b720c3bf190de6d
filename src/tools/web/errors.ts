import { fail } from '../types.js';
import type { ToolErrorKind, ToolResult } from '../types.js';

/**
 * An expected failure with a kind the model can act on. Helpers deep inside a tool throw
 * it; {@link guard} turns it into `{ ok: false }` so the message reaches the model as is.
 * Anything else still propagates to the registry, which reports it as `unknown`.
 */
export class ToolFailure extends Error {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
    /** What the server said, kept apart from the message: the model sees it as data. */
    readonly outside?: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

/** Runs a tool body and converts a {@link ToolFailure} into a failed result. */
export async function guard(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolFailure) return fail(error.kind, error.message, error.outside);
    throw error;
  }
}

/** Reads a required string argument (the registry checked the type; this narrows it). */
export function stringArg(args: readonly unknown[], index: number, name: string): string {
  const value = args[index];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ToolFailure('invalid_args', `"${name}" must be a non-empty string.`);
  }
  return value;
}

/** Reads an optional string argument; `undefined` and `null` mean "not given". */
export function optionalStringArg(
  args: readonly unknown[],
  index: number,
  name: string,
): string | undefined {
  const value = args[index];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new ToolFailure('invalid_args', `"${name}" must be a string when given.`);
  }
  return value;
}
