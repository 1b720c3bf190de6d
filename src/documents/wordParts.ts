/**
 * The parts of a word-processing document. Such files have no pages a reader can trust
 * (pages are laid out by the application), so their text is cut into parts at top-level
 * headings instead, and a part longer than {@link PART_CHARS} into pieces at paragraph
 * breaks; the parts are then windowed and capped like any units (unitWindow.ts).
 */
import type { DocumentUnit, ExtractInput, ExtractedDocument } from './types.js';
import { capUnits, unitRange } from './unitWindow.js';

/** Longest part of a word-processing document before it is split at a paragraph break. */
export const PART_CHARS = 40_000;

/**
 * A word-processing document's Markdown as parts: one when it is short; else cut at each
 * heading of the highest level present, then at paragraph breaks for any part over
 * {@link PART_CHARS}.
 */
export function partsOf(markdown: string): DocumentUnit[] {
  if (markdown.length <= PART_CHARS) return markdown.trim() ? [{ title: 'Text', markdown }] : [];
  const levels = [...markdown.matchAll(/^(#{1,6}) \S/gm)].map((m) => m[1]?.length ?? 7);
  const top = Math.min(7, ...levels);
  const lines = markdown.split('\n');
  const sections: { title: string; lines: string[] }[] = [];
  let current: { title: string; lines: string[] } = { title: '', lines: [] };
  for (const line of lines) {
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading && heading[1]?.length === top && current.lines.some((l) => l.trim())) {
      sections.push(current);
      current = { title: '', lines: [] };
    }
    if (heading && heading[1]?.length === top && !current.title) current.title = heading[2] ?? '';
    current.lines.push(line);
  }
  sections.push(current);
  const parts: DocumentUnit[] = [];
  for (const section of sections) {
    const text = section.lines.join('\n').trim();
    if (!text) continue;
    const pieces = splitAtParagraphs(text, PART_CHARS);
    pieces.forEach((piece, i) => {
      const name = section.title || 'Start';
      parts.push({ title: i === 0 ? name : `${name} (continued)`, markdown: piece });
    });
  }
  return parts;
}

function splitAtParagraphs(text: string, size: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf('\n\n', size);
    if (cut < size / 2) cut = rest.lastIndexOf('\n', size);
    if (cut < size / 2) cut = size;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** The document for a word-processing file: its Markdown cut into parts, windowed and capped. */
export function wordDocument(
  input: ExtractInput,
  head: Pick<ExtractedDocument, 'kind' | 'label' | 'meta'>,
  markdown: string,
  notes: readonly string[] = [],
): ExtractedDocument {
  const parts = partsOf(markdown);
  const range = unitRange(input, parts.length, 'part');
  const chosen = parts
    .map((unit, i) => ({ ...unit, number: i + 1 }))
    .slice(range.from - 1, range.to);
  const capped = capUnits(chosen, input, 'part', range.to);
  const partNote =
    parts.length > 1 && !input.options.units
      ? [
          `The document is cut into ${parts.length} parts at its headings; ask for a range of parts to read fewer.`,
        ]
      : [];
  return {
    ...head,
    meta: [...head.meta, ...(parts.length > 1 ? [['Parts', String(parts.length)] as const] : [])],
    unitName: 'part',
    unitCount: parts.length,
    units: capped.units,
    notes: [...notes, ...range.notes, ...capped.notes, ...partNote],
  };
}
