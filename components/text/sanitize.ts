/**
 * Model and tool text is untrusted: an escape sequence in it could move the cursor, change
 * the title or switch screens, and an invisible character could make one path look like
 * another (`.git\u200b/hooks` reads as `.git/hooks`, a right-to-left override reverses what
 * follows). Everything shown goes through `sanitize` first.
 */

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST) and two-byte escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
// C0 and C1 controls except tab and newline (handled separately).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Characters that change how text reads without showing themselves: bidi embeddings,
 * overrides, isolates and marks; zero-width spaces, joiners and non-joiners; the word joiner
 * and invisible operators; the byte-order mark; the Mongolian vowel separator; soft hyphens;
 * the Hangul fillers; interlinear annotation marks. A zero-width joiner between two emoji
 * (a family, a flag sequence) is drawn as one picture and is kept.
 */
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\ufff9-\ufffb]/g;
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\ufe0f|[\u{1f3fb}-\u{1f3ff}])?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** `⟨U+200B⟩` for an invisible character, so the reader sees it is there. */
function mark(ch: string): string {
  return `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The text with every bidi control and zero-width character shown as `⟨U+XXXX⟩`. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (ch, at: number, whole: string) => {
    const inEmoji =
      ch === '\u200d' &&
      EMOJI_BEFORE.test(whole.slice(Math.max(0, at - 4), at)) &&
      EMOJI_AFTER.test(whole.slice(at + 1, at + 3));
    return inEmoji ? ch : mark(ch);
  });
}

/**
 * The text with escape sequences and control characters removed, tabs as spaces, and bidi
 * controls and zero-width characters shown visibly (see {@link showInvisible}).
 */
export function sanitize(text: string): string {
  return showInvisible(
    text.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(/\t/g, '    ').replace(CONTROL, ''),
  );
}

/** The first line of `text`, sanitized, with a marker when more lines follow. */
export function firstLine(text: string): string {
  const clean = sanitize(text).trim();
  const nl = clean.indexOf('\n');
  return nl === -1 ? clean : `${clean.slice(0, nl)} …`;
}
