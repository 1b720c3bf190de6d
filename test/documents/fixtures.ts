/** The committed PDF, image and media fixtures (made by test/fixtures/documents/make-pdf-media-fixtures.sh). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  DEFAULT_LIMITS,
  DocumentError,
  type ExtractInput,
  type ExtractOptions,
} from '../../src/documents/types.js';

export const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/documents',
);

/** An extractor's input for a fixture, as the worker would build it. */
export async function fixtureInput(
  name: string,
  options: ExtractOptions = {},
  limits = DEFAULT_LIMITS,
): Promise<ExtractInput> {
  return { bytes: await readFile(path.join(FIXTURES, name)), name, options, limits };
}

/** The phrases a fixture's `.expect` sidecar says the model must be given. */
export async function expectedPhrases(name: string): Promise<string[]> {
  const text = await readFile(path.join(FIXTURES, `${name}.expect`), 'utf8');
  return text.split('\n').filter((line) => line.trim().length > 0);
}

/** The {@link DocumentError} an extraction must fail with. */
export async function failure(promise: Promise<unknown>): Promise<DocumentError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DocumentError);
  return error as DocumentError;
}

/** An extractor's input made of the given text, under a name that claims some format. */
export function textInput(name: string, text: string): ExtractInput {
  return { bytes: new TextEncoder().encode(text), name, options: {}, limits: DEFAULT_LIMITS };
}
