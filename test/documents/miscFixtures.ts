/**
 * The docs-misc fixtures (archives, e-mail, EPUB, notebooks, feeds) as extractor inputs.
 * Made by test/fixtures/documents/make-misc.sh and make-msg.ts; committed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractInput, ExtractLimits, ExtractOptions } from '../../src/documents/types.js';
import { DEFAULT_LIMITS, DocumentError } from '../../src/documents/types.js';

export const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/documents',
);

/** The fixture `name`'s bytes, as a reader is given them. */
export function fixtureInput(
  name: string,
  options: ExtractOptions = {},
  limits: Partial<ExtractLimits> = {},
): ExtractInput {
  const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, name)));
  return { bytes, name, options, limits: { ...DEFAULT_LIMITS, ...limits } };
}

/** An input from bytes made in the test. */
export function bytesInput(
  name: string,
  bytes: Uint8Array | string,
  options: ExtractOptions = {},
  limits: Partial<ExtractLimits> = {},
): ExtractInput {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return { bytes: data, name, options, limits: { ...DEFAULT_LIMITS, ...limits } };
}

/** The phrases a fixture's `.expect` sidecar says the model must be given. */
export function expectedPhrases(name: string): string[] {
  return readFileSync(path.join(FIXTURES, `${name}.expect`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** Awaits `run` and returns the DocumentError it threw (fails the test if it threw anything else). */
export async function documentError(run: () => Promise<unknown>): Promise<DocumentError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof DocumentError) return e;
    throw new Error(`expected a DocumentError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a DocumentError, but the call succeeded');
}

/** Everything a reader gave the model, as one string: meta, units and notes. */
export function allText(doc: {
  meta: ReadonlyArray<readonly [string, string]>;
  units: ReadonlyArray<{ title: string; markdown: string }>;
  notes: readonly string[];
}): string {
  return [
    ...doc.meta.map(([k, v]) => `${k}: ${v}`),
    ...doc.units.map((u) => `## ${u.title}\n${u.markdown}`),
    ...doc.notes,
  ].join('\n');
}
