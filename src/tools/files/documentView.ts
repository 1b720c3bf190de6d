/**
 * A document as `read` shows it: a header naming the file, its kind and the units shown,
 * the facts a reader wants first (title, author, pages…), one heading per unit (page, slide,
 * sheet…), what was left out, and always how to get the rest. The same byte cap as text.
 */
import type { DocumentError, ExtractedDocument } from '../../documents/types.js';
import type { ToolErrorKind, ToolResult } from '../types.js';
import { fail } from '../types.js';
import type { DocumentReader } from '../../documents/reader.js';
import { KIND_LABELS, kindFromName } from '../../documents/detect.js';
import { counted } from '../../core/plural.js';
import { formatSize, q } from './common.js';

/** The units asked for: 1-based first unit and how many (undefined: as many as fit). */
export interface UnitRange {
  readonly start: number;
  readonly limit: number | undefined;
}

/** The text for the model and the one-line summary for the tool log. */
export function renderDocument(
  name: string,
  doc: ExtractedDocument,
  range: UnitRange,
  maxBytes: number,
): { text: string; display: string } {
  const unit = doc.unitName;
  const total = Math.max(doc.unitCount, doc.units.at(-1)?.number ?? 0);
  const wanted = doc.units.filter(
    (u) =>
      u.number >= range.start &&
      (range.limit === undefined || u.number < range.start + range.limit),
  );
  const body: string[] = [];
  let bytes = 0;
  let shownLast = range.start - 1;
  let cutUnit: number | undefined;
  for (const u of wanted) {
    const heading = `## ${u.title}${u.source === 'ocr' ? ' (text by OCR)' : ''}\n\n`;
    const text = u.markdown.trim();
    // UTF-8 takes at least a byte per UTF-16 unit: a unit longer than the room is not
    // measured (or copied whole), which for a unit of millions of characters would hold up
    // the screen for milliseconds.
    const fits = bytes + heading.length + text.length + 1 <= maxBytes;
    const size = fits ? Buffer.byteLength(heading) + Buffer.byteLength(text) + 1 : Infinity;
    if (bytes + size > maxBytes) {
      if (body.length === 0) {
        // One enormous unit: its start rather than nothing.
        body.push(`${(heading + text.slice(0, maxBytes / 4)).slice(0, maxBytes / 4)} …`);
        cutUnit = u.number;
        shownLast = u.number;
      }
      break;
    }
    body.push(`${heading}${text}\n`);
    bytes += size;
    shownLast = u.number;
  }
  const first = wanted[0]?.number ?? range.start;
  const span =
    body.length === 0
      ? `${counted(total, unit)}`
      : first === shownLast
        ? `${unit} ${first} of ${total}`
        : `${unit}s ${first}–${shownLast} of ${total}`;
  const lines = [`${name} · ${doc.label} · ${span}`];
  for (const [label, value] of doc.meta) lines.push(`${label}: ${value}`);
  for (const note of doc.notes) lines.push(`Note: ${note}`);
  if (cutUnit !== undefined) {
    lines.push(
      `Note: ${unit} ${cutUnit} is longer than ${formatSize(maxBytes)}; only its start is shown.`,
    );
  }
  lines.push('');
  if (body.length === 0) lines.push(`(no text in ${unit}s from ${range.start})`);
  else lines.push(...body);
  if (shownLast < total) {
    lines.push(
      `[showing ${body.length === 0 ? 'nothing' : `${unit}s ${first}–${shownLast}`} of ${total}; call read(${q(name)}, ${shownLast + 1}) for more]`,
    );
  }
  const display = `read ${name}: ${doc.label}, ${span}`;
  return { text: lines.join('\n'), display };
}

/**
 * A document's kind, and its page count when the cache knows it, for `ls` and `find`:
 * `PDF, 12 pages`. Cheap: the name and one cache lookup, no extraction. Undefined for files
 * that are not documents (plain text, code).
 */
export async function documentSummary(
  documents: DocumentReader,
  file: { abs: string; rel: string; size: number; mtimeMs: number },
): Promise<string | undefined> {
  const kind = kindFromName(file.rel);
  if (kind === undefined || kind === 'text') return undefined;
  const doc = await documents.cached(file).catch(() => undefined);
  if (doc === undefined) return KIND_LABELS[kind];
  const count = Math.max(doc.unitCount, doc.units.length);
  return count > 1 || doc.unitName === 'page'
    ? `${doc.label}, ${counted(count, doc.unitName)}`
    : doc.label;
}

/** Documents above this are refused: a 100 MB PDF is a scan that would take minutes. */
export const READ_MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

/** How each way a document fails is reported as a tool error. */
const DOCUMENT_ERRORS: Readonly<Record<DocumentError['kind'], ToolErrorKind>> = {
  encrypted: 'unsupported',
  malformed: 'io',
  too_large: 'too_large',
  unsupported: 'unsupported',
  timeout: 'timeout',
  missing: 'not_found',
  aborted: 'aborted',
};

/** A document's failure, already worded for the model by the extractor or the pool. */
export function documentFailure(e: DocumentError): ToolResult {
  return fail(DOCUMENT_ERRORS[e.kind], e.message);
}
