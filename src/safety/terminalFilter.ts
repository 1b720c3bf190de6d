/**
 * Terminal control sequences removed from text on its way to the user's terminal, for
 * print mode's plain-text output. Model text is untrusted: an OSC 52 sequence writes the
 * user's clipboard, OSC 8 hides a link behind harmless text, CSI cursor moves and `\r`
 * overwrite what was printed. Text arrives in streamed pieces and a sequence may be split
 * across them, so the filter is a small state machine that remembers where it stopped.
 * Kept: printable text, `\n` and `\t`. Dropped: ESC sequences (CSI, OSC, DCS, APC, PM, SOS
 * and two-byte ones), their 8-bit C1 forms, every other C0/C1 control and DEL, and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * make text read in another order than it runs (a command that shows as harmless).
 */

type State =
  | 'text'
  | 'esc' // after ESC
  | 'csi' // inside ESC [ … final
  | 'string' // inside OSC/DCS/APC/PM/SOS, until BEL or ST
  | 'string-esc'; // ESC seen inside a string: ST is ESC \

/** ESC followed by one of these opens a control string (ended by BEL or ST). */
const STRING_OPENERS = new Set([']', 'P', '_', '^', 'X']);
/** The 8-bit forms: CSI, and the string openers OSC, DCS, APC, PM, SOS. */
const C1_CSI = 0x9b;
const C1_STRING = new Set([0x9d, 0x90, 0x9f, 0x9e, 0x98]);

/** A streaming filter; one per output stream, fed every piece in order. */
export class TerminalTextFilter {
  private state: State = 'text';

  /** Returns the printable part of `chunk`, carrying an unfinished sequence over to the next. */
  push(chunk: string): string {
    let out = '';
    for (const ch of chunk) {
      const code = ch.codePointAt(0) ?? 0;
      switch (this.state) {
        case 'text':
          out += this.text(ch, code);
          break;
        case 'esc':
          this.state = ch === '[' ? 'csi' : STRING_OPENERS.has(ch) ? 'string' : 'text';
          break;
        case 'csi':
          // Parameter and intermediate bytes are 0x20–0x3f; a final byte 0x40–0x7e ends it.
          if (code >= 0x40 && code <= 0x7e) this.state = 'text';
          else if (code < 0x20 || code > 0x7e) this.state = 'text'; // malformed: drop and resume
          break;
        case 'string':
          if (code === 0x07 || code === 0x9c) this.state = 'text';
          else if (code === 0x1b) this.state = 'string-esc';
          break;
        case 'string-esc':
          this.state = ch === '\\' ? 'text' : 'string';
          break;
      }
    }
    return out;
  }

  private text(ch: string, code: number): string {
    if (code === 0x1b) {
      this.state = 'esc';
      return '';
    }
    if (code === C1_CSI) {
      this.state = 'csi';
      return '';
    }
    if (C1_STRING.has(code)) {
      this.state = 'string';
      return '';
    }
    if (ch === '\n' || ch === '\t') return ch;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return '';
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return '';
    return ch;
  }
}

/** Filters one whole piece of text (no state carried over). */
export function stripTerminalControls(text: string): string {
  return new TerminalTextFilter().push(text);
}
