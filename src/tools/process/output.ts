/**
 * A command's output, kept within a cap while it streams: the first half of the cap as it
 * came, then a rolling tail, so a command that prints a gigabyte costs a few kilobytes of
 * memory and the model still sees how it started and how it ended.
 */
import { stripTerminalControls } from '../../safety/terminalFilter.js';

export class CappedOutput {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.floor(maxChars / 2);
    this.tailMax = maxChars - this.headMax;
  }

  push(chunk: string): void {
    this.total += chunk.length;
    const room = this.headMax - this.head.length;
    if (room > 0) {
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === '') return;
    this.tail = (this.tail + chunk).slice(-this.tailMax);
  }

  /** Characters received in all. */
  get size(): number {
    return this.total;
  }

  /**
   * The text kept, terminal control sequences removed (a command may print an OSC 52 that
   * would write the user's clipboard when the result is shown), with the cut said in place.
   */
  text(): string {
    const cut = this.total - this.head.length - this.tail.length;
    const kept =
      cut > 0
        ? `${this.head}\n[… ${cut} characters of output cut here (${this.total} in all); the start and the end are kept …]\n${this.tail}`
        : this.head + this.tail;
    return stripTerminalControls(kept);
  }
}
