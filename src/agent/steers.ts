/**
 * Messages the user steered with: sent while a turn works, to be read at its next tool
 * boundary as an amendment to the task in flight (the queue, by contrast, waits for the turn
 * to end). The turn in flight takes them: the calls of its reply not yet started come back
 * "deferred by the user", the messages are saved as the user's, and the same turn goes on.
 * A turn that ends before any boundary hands them to the input queue, so none is lost.
 */
export class Steers {
  /** What the user typed while a turn ran: handed on at the next boundary (emptied each turn). */
  private readonly texts: string[] = [];

  /** Whether a message waits for the next tool boundary. */
  get pending(): boolean {
    return this.texts.length > 0;
  }

  add(text: string): void {
    this.texts.push(text);
  }

  /** Every message waiting, oldest first; none waits after. */
  take(): string[] {
    return this.texts.splice(0);
  }
}
