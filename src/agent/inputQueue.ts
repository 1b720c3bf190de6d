import type { TakenInput } from '../pipeline/turn.js';

/** A slash command, as opposed to text (`//` escapes a leading slash). */
export function isCommand(text: string): boolean {
  return text.startsWith('/') && !text.startsWith('//');
}

/**
 * What the user sent that no turn has taken yet, in order. Submit queues; the next user
 * turn's RESTORE takes it, once the turn before has saved what it produced, so the history
 * keeps the true order (a cut-off reply, then the user's words).
 */
export class InputQueue {
  private readonly pending: string[] = [];

  get size(): number {
    return this.pending.length;
  }

  push(text: string): void {
    this.pending.push(text);
  }

  /** The first command alone, or every message up to the next command. */
  take(): TakenInput {
    const first = this.pending[0];
    if (first !== undefined && isCommand(first)) {
      this.pending.shift();
      return { command: first, messages: [] };
    }
    const messages: string[] = [];
    while (this.pending.length > 0 && !isCommand(this.pending[0]!)) {
      messages.push(this.pending.shift()!);
    }
    return { messages };
  }
}
