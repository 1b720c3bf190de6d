import type { QueuedMessage } from '../api/events.js';

/** A slash command, as opposed to text (`//` escapes a leading slash). */
export function isCommand(text: string): boolean {
  return text.startsWith('/') && !text.startsWith('//');
}

interface Pending extends QueuedMessage {
  /**
   * Sent with `queue` (waits for the turn boundary, shown as queued, editable) rather than
   * `submit` (the turn in flight was stopped for it: it is taken as soon as that turn saves).
   */
  shown: boolean;
}

/**
 * What the user sent that no turn has taken yet, in order. Submit and queue both add here; the
 * next user turn's RESTORE takes it, once the turn before has saved what it produced, so the
 * history keeps the true order (a cut-off reply, then the user's words). Queued messages have
 * ids so the user can edit or drop them before a turn takes them; `onChange` is told the
 * queued list after every change to it (to emit `queue_changed`).
 */
/** The user's input a turn takes: one slash command, or the messages to answer. */
export interface TakenInput {
  command?: string;
  messages: readonly string[];
}

export class InputQueue {
  private readonly pending: Pending[] = [];
  private nextId = 1;

  constructor(
    private readonly onChange: (queued: QueuedMessage[]) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** The messages waiting as queued (not the submitted ones), oldest first, as plain data. */
  get queued(): QueuedMessage[] {
    return this.pending.filter((p) => p.shown).map(({ id, text, at }) => ({ id, text, at }));
  }

  /** A submitted message or command: taken by the next user turn, not shown as queued. */
  push(text: string): void {
    this.pending.push({ id: this.newId(), text, at: this.now(), shown: false });
  }

  /** A message for the next turn boundary, shown as queued until a turn takes it; its id. */
  queue(text: string): string {
    const id = this.newId();
    this.pending.push({ id, text, at: this.now(), shown: true });
    this.changed();
    return id;
  }

  /** Replaces a queued message's text; false when no queued message has that id. */
  edit(id: string, text: string): boolean {
    const item = this.pending.find((p) => p.shown && p.id === id);
    if (!item) return false;
    item.text = text;
    this.changed();
    return true;
  }

  /** Removes a queued message; false when no queued message has that id. */
  drop(id: string): boolean {
    const index = this.pending.findIndex((p) => p.shown && p.id === id);
    if (index < 0) return false;
    this.pending.splice(index, 1);
    this.changed();
    return true;
  }

  /** The first command alone, or every message up to the next command. */
  take(): TakenInput {
    const taken = this.takeItems();
    if (taken.some((p) => p.shown)) this.changed();
    const first = taken[0];
    if (first !== undefined && isCommand(first.text)) return { command: first.text, messages: [] };
    return { messages: taken.map((p) => p.text) };
  }

  private takeItems(): Pending[] {
    const first = this.pending[0];
    if (first !== undefined && isCommand(first.text)) return this.pending.splice(0, 1);
    let end = 0;
    while (end < this.pending.length && !isCommand(this.pending[end]!.text)) end += 1;
    return this.pending.splice(0, end);
  }

  private newId(): string {
    return `q${this.nextId++}`;
  }

  private changed(): void {
    this.onChange(this.queued);
  }
}
