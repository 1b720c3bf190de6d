/**
 * Large pastes shown as one placeholder: a paste of more than {@link PASTE_MAX_LINES} lines or
 * {@link PASTE_MAX_CHARS} characters goes into the input line as `[pasted 1,100 lines]`
 * instead of a 100 KB echo, and its text is kept beside the line. The message sent has each
 * placeholder replaced by its text; Backspace right after one deletes it whole; Ctrl+O puts
 * the text back in the line. Several pastes get their own placeholders (` #2` makes a repeated
 * label unique, so each one maps to exactly one text). Pure functions over the line state.
 */
import type { LineState } from './lineEditor.js';

/** A paste with more lines than this is collapsed. */
export const PASTE_MAX_LINES = 10;
/** A paste with more characters than this is collapsed (a long single line: a minified file). */
export const PASTE_MAX_CHARS = 1000;

export interface Paste {
  /** The placeholder exactly as it stands in the line, brackets included. */
  readonly label: string;
  readonly text: string;
}

/** Lines in a pasted text (terminals send CR or CRLF); a final break does not start another. */
export function pastedLines(text: string): number {
  const lines = text.split(/\r\n?|\n/);
  return lines.at(-1) === '' ? Math.max(1, lines.length - 1) : lines.length;
}

/** Whether a paste is big enough to be shown as a placeholder. */
export function isLargePaste(text: string): boolean {
  return text.length > PASTE_MAX_CHARS || pastedLines(text) > PASTE_MAX_LINES;
}

/** `[what]`, or `[what #2]` when that label is taken already (by a paste or typed text). */
function uniqueLabel(what: string, line: LineState, pastes: readonly Paste[]): string {
  const taken = (l: string): boolean => line.value.includes(l) || pastes.some((p) => p.label === l);
  let label = `[${what}]`;
  for (let n = 2; taken(label); n++) label = `[${what} #${n}]`;
  return label;
}

/** The line with `text` pasted at the cursor as a placeholder named `what`. */
export function insertPaste(
  line: LineState,
  pastes: readonly Paste[],
  text: string,
  what: string,
): { line: LineState; pastes: readonly Paste[] } {
  const label = uniqueLabel(what, line, pastes);
  return {
    line: {
      value: line.value.slice(0, line.cursor) + label + line.value.slice(line.cursor),
      cursor: line.cursor + label.length,
    },
    pastes: [...pastes, { label, text }],
  };
}

/** The message to send: every placeholder in `value` replaced by its pasted text. */
export function expandPastes(value: string, pastes: readonly Paste[]): string {
  let out = value;
  // Each label is unique, and replaced once: a text that holds another label stays as pasted.
  for (const p of pastes) {
    const at = out.indexOf(p.label);
    if (at !== -1) out = out.slice(0, at) + p.text + out.slice(at + p.label.length);
  }
  return out;
}

/** Backspace right after a placeholder: the whole placeholder and its text go; else undefined. */
export function deletePasteBack(
  line: LineState,
  pastes: readonly Paste[],
): { line: LineState; pastes: readonly Paste[] } | undefined {
  const before = line.value.slice(0, line.cursor);
  const hit = pastes.find((p) => before.endsWith(p.label));
  if (!hit) return undefined;
  const from = line.cursor - hit.label.length;
  return {
    line: { value: line.value.slice(0, from) + line.value.slice(line.cursor), cursor: from },
    pastes: pastes.filter((p) => p !== hit),
  };
}

/**
 * Ctrl+O: the placeholder at or before the cursor (else the last one in the line) becomes its
 * text again, to read or edit; undefined when the line has none.
 */
export function expandPasteAt(
  line: LineState,
  pastes: readonly Paste[],
): { line: LineState; pastes: readonly Paste[] } | undefined {
  const placed = pastes
    .map((p) => ({ p, at: line.value.indexOf(p.label) }))
    .filter((x) => x.at !== -1)
    .sort((a, b) => a.at - b.at);
  if (placed.length === 0) return undefined;
  const atCursor = placed.filter((x) => x.at <= line.cursor).at(-1) ?? placed.at(-1)!;
  const { p, at } = atCursor;
  const value = line.value.slice(0, at) + p.text + line.value.slice(at + p.label.length);
  return { line: { value, cursor: at + p.text.length }, pastes: pastes.filter((x) => x !== p) };
}

/** The pastes whose placeholder is still in the line (an edit may have cut one). */
export function keptPastes(value: string, pastes: readonly Paste[]): readonly Paste[] {
  if (pastes.length === 0) return pastes;
  const kept = pastes.filter((p) => value.includes(p.label));
  return kept.length === pastes.length ? pastes : kept;
}
