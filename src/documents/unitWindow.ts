/**
 * The units a reader returns: those asked for (`options.units`), in order, while the Markdown
 * stays within `maxChars`; whatever is left out is said in a note with the range to ask for
 * next, so the model is never silently given half a book. Two forms: {@link unitWindow} makes
 * units on demand (chapters, cells, feed items: one not shown is never converted);
 * {@link unitRange} and {@link capUnits} window units the reader has already made (slides,
 * sheets, parts of a word-processing document), cutting the one that crosses the cap at a
 * line break. (The PDF reader windows its pages in pdf.ts.)
 */
import type { DocumentUnit, ExtractInput, UnitName } from './types.js';

export type NumberedUnit = DocumentUnit & { readonly number: number };

export interface UnitWindow {
  readonly units: NumberedUnit[];
  readonly notes: string[];
}

/**
 * Picks of `count` units (numbered from 1, made on demand by `unitAt`, so a chapter not
 * shown is never converted) those of `input.options.units`, stopping before the unit that
 * would pass `input.limits.maxChars` (a first unit that alone passes it is cut). `noun` names
 * a unit in notes: `chapter`, `cell`, `item`.
 */
export function unitWindow(
  count: number,
  unitAt: (n: number) => DocumentUnit,
  input: ExtractInput,
  noun: string,
): UnitWindow {
  const notes: string[] = [];
  const asked = input.options.units;
  const from = Math.max(1, asked?.from ?? 1);
  const to = Math.min(count, asked?.to ?? count);
  if (asked !== undefined && from > count) {
    notes.push(
      `"${input.name}" has ${count} ${noun}s; ${noun} ${from} does not exist. Ask for ${noun}s 1-${count}.`,
    );
    return { units: [], notes };
  }
  const units: NumberedUnit[] = [];
  let chars = 0;
  for (let n = from; n <= to; n++) {
    const unit = unitAt(n);
    const size = unit.title.length + unit.markdown.length;
    if (chars + size > input.limits.maxChars) {
      if (units.length === 0) {
        const keep = Math.max(0, input.limits.maxChars - unit.title.length);
        units.push({ ...unit, number: n, markdown: unit.markdown.slice(0, keep) });
        notes.push(
          `${noun} ${n} was cut at ${input.limits.maxChars} characters (the output cap); the rest of it is not shown.`,
        );
        n++;
      }
      if (n <= to) {
        notes.push(
          `${noun}s ${n}-${to} are not shown: the output cap of ${input.limits.maxChars} characters was reached. Ask for ${noun}s ${n}-${to} next.`,
        );
      }
      break;
    }
    chars += size;
    units.push({ ...unit, number: n });
  }
  return { units, notes };
}

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
