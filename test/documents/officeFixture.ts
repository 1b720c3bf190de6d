/**
 * Runs an Office extractor on bytes as the worker would: a fixture from
 * test/fixtures/documents (or crafted bytes), options and limits, and renders what it
 * returned as the plain text a model would be given, for phrase checks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTRACTORS } from '../../src/documents/formats.js';
import type {
  DocumentKind,
  ExtractLimits,
  ExtractOptions,
  ExtractedDocument,
} from '../../src/documents/types.js';
import { DEFAULT_LIMITS } from '../../src/documents/types.js';

export const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/documents',
);

export function fixtureBytes(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}

export async function extractBytes(
  kind: DocumentKind,
  name: string,
  bytes: Uint8Array,
  options: ExtractOptions = {},
  limits: Partial<ExtractLimits> = {},
): Promise<ExtractedDocument> {
  const load = EXTRACTORS[kind];
  if (!load) throw new Error(`no extractor for ${kind}`);
  const { extract } = await load();
  return extract({ bytes, name, options, limits: { ...DEFAULT_LIMITS, ...limits } });
}

export function extractFixture(
  kind: DocumentKind,
  file: string,
  options: ExtractOptions = {},
  limits: Partial<ExtractLimits> = {},
): Promise<ExtractedDocument> {
  return extractBytes(kind, file, fixtureBytes(file), options, limits);
}

/** The document as one text: meta lines, then each unit's heading and Markdown, then notes. */
export function rendered(doc: ExtractedDocument): string {
  return [
    ...doc.meta.map(([label, value]) => `${label}: ${value}`),
    ...doc.units.map((u) => `## ${u.title}\n\n${u.markdown}`),
    ...doc.notes,
  ].join('\n\n');
}

/** The phrases of a fixture's `.expect` sidecar. */
export function expectedPhrases(file: string): string[] {
  return readFileSync(path.join(FIXTURES, `${file}.expect`), 'utf8')
    .split('\n')
    .filter((line) => line.trim());
}
