/**
 * Notification text comes from the model (a reply, a tool call, a reason quoting it), so it
 * is hostile until cleaned: written into the user's terminal inside an OSC sequence, an
 * escape or BEL in it would end the sequence and let the rest act on the terminal (move the
 * cursor, set the title, paste into the shell). Everything that is not plain printable text
 * goes: C0 and C1 controls, DEL, and the bidirectional overrides that make text read other
 * than it is. Line breaks and tabs become spaces; runs of spaces become one.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The longest text sent: enough for a first line, short enough for any notifier. */
export const MAX_NOTIFY_CHARS = 200;

/** `text` as one clean line of at most `max` characters (an ellipsis marks a cut). */
export function cleanLine(text: string, max = MAX_NOTIFY_CHARS): string {
  const flat = text.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}
