/**
 * The slides, sheets and parts an Office extractor returns: the range the caller asked for,
 * within the character cap, with a note for everything left out that says how to get it.
 * Word-processing files have no pages a reader can trust (pages are laid out by the
 * application), so their text is cut into parts at top-level headings instead, and a part
 * longer than {@link PART_CHARS} into pieces at paragraph breaks.
 */
import type { DocumentUnit, ExtractInput, ExtractedDocument, UnitName } from './types.js';

export type NumberedUnit = DocumentUnit & { readonly number: number };

/** The 1-based numbers of the units to extract, from the caller's range, clipped to the count. */
export function unitRange(
  input: ExtractInput,
  count: number,
  unitName: UnitName,
): { from: number; to: number; notes: string[] } {
  const asked = input.options.units;
  if (!asked) return { from: 1, to: count, notes: [] };
  const from = Math.max(1, asked.from);
  const to = Math.min(count, asked.to);
  if (from > to) {
    const notes = [
      `There is no ${unitName} ${asked.from}${asked.to > asked.from ? `–${asked.to}` : ''}: ` +
        `"${input.name}" has ${count} ${unitName}${count === 1 ? '' : 's'}` +
        (count > 0 ? ` (1–${count}).` : '.'),
    ];
    return { from: 1, to: 0, notes };
  }
  return { from, to, notes: [] };
}

/**
 * Keeps units in order until `maxChars` of Markdown; the unit that crosses the cap is cut at a
 * line break, and a note names the units not shown and the range that reads them.
 */
export function capUnits(
  units: readonly NumberedUnit[],
  input: ExtractInput,
  unitName: UnitName,
  lastNumber: number,
): { units: NumberedUnit[]; notes: string[] } {
  const kept: NumberedUnit[] = [];
  let left = input.limits.maxChars;
  for (const unit of units) {
    if (unit.markdown.length + unit.title.length <= left) {
      kept.push(unit);
      left -= unit.markdown.length + unit.title.length;
      continue;
    }
    const cutAt = Math.max(0, unit.markdown.lastIndexOf('\n', left));
    const shown = unit.markdown.slice(0, cutAt);
    if (shown.trim()) kept.push({ ...unit, markdown: shown });
    const resume = unit.number;
    const note =
      `Output cap of ${input.limits.maxChars.toLocaleString('en')} characters reached: ` +
      (shown.trim()
        ? `${unitName} ${unit.number} is cut after ${shown.length} characters and `
        : '') +
      `${unitName}s ${resume}–${lastNumber} are not all shown; ask for ${unitName}s ${resume}–${lastNumber} ` +
      'in smaller ranges to read the rest.';
    return { units: kept, notes: [note] };
  }
  return { units: kept, notes: [] };
}

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
