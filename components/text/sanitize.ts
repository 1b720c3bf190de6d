/**
 * Model and tool text is untrusted: an escape sequence in it could move the cursor, change
 * the title or switch screens. Everything shown goes through `sanitize` first.
 */

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST) and two-byte escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
// C0 and C1 controls except tab and newline (handled separately).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** The text with escape sequences and control characters removed; tabs become spaces. */
export function sanitize(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(/\t/g, '    ').replace(CONTROL, '');
}

/** The first line of `text`, sanitized, with a marker when more lines follow. */
export function firstLine(text: string): string {
  const clean = sanitize(text).trim();
  const nl = clean.indexOf('\n');
  return nl === -1 ? clean : `${clean.slice(0, nl)} …`;
}
