/**
 * Messages of any size on a wire whose lines are bounded. Every line on the socket stays under
 * {@link MAX_LINE_BYTES}, so a reader can always find the next one; the agent's messages
 * (an event holding a 1.2 MB reply, a snapshot holding twenty read files) may be far longer,
 * so a long one travels as consecutive `part` lines, each carrying a slice of its JSON text,
 * the last with `more: false`, and the reader joins them. A reader that meets a line it cannot
 * read (longer than the limit, not JSON, a broken run of parts) skips it, resumes at the next
 * newline and reports the problem: it never stalls on one bad line, and never crashes.
 */
import { MAX_LINE_BYTES, type ServerMessage } from './protocol.js';

/**
 * The JSON text one `part` line carries, in UTF-16 code units. Escaped inside the part's own
 * JSON a code unit takes at most 6 bytes (`\u001f`; JSON text has no raw controls, so in
 * practice at most 3), so a part line stays well under {@link MAX_LINE_BYTES}.
 */
export const PART_CHARS = 128 * 1024;

/** The largest message a reader joins from parts (memory stays bounded against a broken peer). */
export const MAX_MESSAGE_CHARS = 512 * 1024 * 1024;

/** One slice of a long message's JSON text. */
export interface PartMessage {
  type: 'part';
  data: string;
  more: boolean;
}

/** A message as the lines that carry it: one line, or its parts. */
export function encodeFrames(message: ServerMessage): string {
  const json = JSON.stringify(message);
  if (json.length <= PART_CHARS) return `${json}\n`;
  let out = '';
  for (let at = 0; at < json.length; at += PART_CHARS) {
    const part: PartMessage = {
      type: 'part',
      data: json.slice(at, at + PART_CHARS),
      more: at + PART_CHARS < json.length,
    };
    out += `${JSON.stringify(part)}\n`;
  }
  return out;
}

/**
 * Splits a byte stream into lines, holding at most {@link MAX_LINE_BYTES} of an unfinished
 * one. A line over the limit is dropped (counted in `skipped`) and reading resumes after the
 * newline that ends it, so one bad line never hides the lines after it.
 */
export class LineSplitter {
  private pending = '';
  /** Inside a line already over the limit: its bytes are dropped up to its newline. */
  private skipping = false;

  constructor(private readonly maxBytes = MAX_LINE_BYTES) {}

  push(chunk: string): { lines: string[]; skipped: number } {
    const lines: string[] = [];
    let skipped = 0;
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf('\n');
      if (newline < 0) {
        if (this.skipping) break;
        this.pending += rest;
        if (this.tooLong(this.pending)) {
          this.pending = '';
          this.skipping = true;
          skipped += 1;
        }
        break;
      }
      const piece = rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.pending + piece;
      this.pending = '';
      if (this.tooLong(line)) skipped += 1;
      else if (line.trim() !== '') lines.push(line);
    }
    return { lines, skipped };
  }

  private tooLong(text: string): boolean {
    // A code unit is at most 3 bytes: a short text needs no count.
    return text.length * 3 > this.maxBytes && Buffer.byteLength(text) > this.maxBytes;
  }
}

/** What a reader made of a chunk: whole messages, and the problems it skipped past. */
export interface ReadResult {
  messages: ServerMessage[];
  problems: string[];
}

/** The client's reader of the agent's lines: joins parts, skips what it cannot read. */
export class ServerReader {
  private readonly lines = new LineSplitter();
  private parts: string[] = [];
  private partChars = 0;
  /** A message too big to join: its remaining parts are dropped. */
  private dropping = false;

  push(chunk: string): ReadResult {
    const { lines, skipped } = this.lines.push(chunk);
    const result: ReadResult = { messages: [], problems: [] };
    if (skipped > 0) {
      result.problems.push(
        `${skipped === 1 ? 'a line' : `${skipped} lines`} from the agent over ${MAX_LINE_BYTES / 1024 / 1024} MiB could not be read and ${skipped === 1 ? 'was' : 'were'} skipped`,
      );
      // A part may have been among them: what was joined so far is incomplete.
      this.parts = [];
      this.partChars = 0;
    }
    for (const line of lines) this.read(line, result);
    return result;
  }

  private read(line: string, result: ReadResult): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      result.problems.push('a line from the agent is not JSON and was skipped');
      return;
    }
    const m = value as Partial<PartMessage> & { type?: unknown };
    if (m.type !== 'part') {
      result.messages.push(value as ServerMessage);
      return;
    }
    if (typeof m.data !== 'string') {
      result.problems.push('a part from the agent carries no text and was skipped');
      return;
    }
    if (this.dropping) {
      this.dropping = m.more === true;
      return;
    }
    this.parts.push(m.data);
    this.partChars += m.data.length;
    if (this.partChars > MAX_MESSAGE_CHARS) {
      result.problems.push(
        `a message from the agent is over ${MAX_MESSAGE_CHARS / 1024 / 1024} MiB and was skipped`,
      );
      this.parts = [];
      this.partChars = 0;
      this.dropping = m.more === true;
      return;
    }
    if (m.more === true) return;
    const json = this.parts.join('');
    this.parts = [];
    this.partChars = 0;
    try {
      result.messages.push(JSON.parse(json) as ServerMessage);
    } catch {
      result.problems.push('a long message from the agent arrived broken and was skipped');
    }
  }
}
