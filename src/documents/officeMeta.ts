/**
 * The facts a reader wants before the content of an Office or OpenDocument file: title,
 * subject, author, dates. OOXML keeps them in `docProps/core.xml`, OpenDocument in
 * `meta.xml`; both use Dublin Core names.
 */
import { descendants, parseXml, textOf } from './xmlTree.js';
import type { XmlElement } from './xmlTree.js';
import type { ZipParts } from './zipParts.js';

export type Meta = Array<readonly [string, string]>;

const FIELDS: ReadonlyArray<readonly [label: string, names: readonly string[]]> = [
  ['Title', ['dc:title']],
  ['Subject', ['dc:subject']],
  ['Author', ['dc:creator', 'meta:initial-creator']],
  ['Created', ['dcterms:created', 'meta:creation-date']],
  ['Modified', ['dcterms:modified', 'dc:date']],
];

/** Title, subject, author, created and modified, where the package says them. */
export function packageMeta(parts: ZipParts, name: string): Meta {
  const part = parts.has('docProps/core.xml') ? 'docProps/core.xml' : 'meta.xml';
  const text = parts.text(part);
  if (!text) return [];
  const root = parseXml(text, part, name);
  const meta: Meta = [];
  for (const [label, names] of FIELDS) {
    const value = first(root, names);
    if (value) meta.push([label, label === 'Created' || label === 'Modified' ? day(value) : value]);
  }
  return meta;
}

function first(root: XmlElement, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = descendants(root, name).map(textOf)[0]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** `2026-03-31T10:00:00Z` → `2026-03-31 10:00 UTC`; anything else as written. */
function day(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::[\d.]+)?(Z)?/.exec(value);
  if (!m) return value;
  return m[2] === '00:00' && !m[3] ? (m[1] ?? value) : `${m[1]} ${m[2]}${m[3] ? ' UTC' : ''}`;
}
