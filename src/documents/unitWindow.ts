/**
 * The units a reader returns: those asked for (`options.units`), in order, while the Markdown
 * stays within `maxChars`; whatever is left out is said in a note with the range to ask for
 * next, so the model is never silently given half a book.
 */
import type { DocumentUnit, ExtractInput } from './types.js';

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
