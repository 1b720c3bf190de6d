/**
 * The output cap: a document's units are kept, in order, until `maxChars` characters of
 * Markdown; the unit that crosses the cap is cut, the rest dropped, and a note says so. Meta
 * values and notes are bounded too (a PDF's title can be megabytes). Run in the extraction
 * process on every reply, and again in Cogito on what comes back.
 */
import type { ExtractedDocument } from './types.js';

/** Longest meta value or note kept. */
const MAX_LINE = 1000;
/** Most meta entries and notes kept. */
const MAX_ENTRIES = 50;

const short = (text: unknown): string => {
  const s = String(text);
  return s.length > MAX_LINE ? `${s.slice(0, MAX_LINE)} …` : s;
};

export function capDocument(doc: ExtractedDocument, maxChars: number): ExtractedDocument {
  let total = 0;
  let cut = false;
  const units: ExtractedDocument['units'][number][] = [];
  for (const unit of doc.units) {
    const room = maxChars - total;
    const markdown = String(unit.markdown);
    if (markdown.length > room) {
      if (room > 0) units.push({ ...unit, markdown: `${markdown.slice(0, room)} …` });
      cut = true;
      break;
    }
    units.push(unit);
    total += markdown.length;
  }
  const meta = doc.meta.slice(0, MAX_ENTRIES).map(([k, v]) => [short(k), short(v)] as const);
  const notes = doc.notes.slice(0, MAX_ENTRIES).map(short);
  if (cut) {
    const last = units.at(-1)?.number ?? 0;
    notes.push(
      `The text was cut at ${maxChars.toLocaleString('en-US')} characters (the limit per document), in ${doc.unitName} ${last}; later ${doc.unitName}s were not read.`,
    );
  }
  return { ...doc, meta, notes, units };
}
