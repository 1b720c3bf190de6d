import type { QueuedMessage } from '../api/events.js';
import { newMessageId } from '../core/messages.js';

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
  /** The id its history message gets, and its name in the journal. */
  key: string;
}

/**
 * Where the queue keeps its messages durably (the session's inbox, history/sessionInbox.ts):
 * a message is acknowledged only once `add` returned ok, and marked done once a turn wrote
 * it to the history (or the user dropped it).
 */
export interface InputJournal {
  add(item: {
    id: string;
    text: string;
    at: number;
  }): { ok: true } | { ok: false; error: { message: string } };
  edit(id: string, text: string): unknown;
  done(ids: readonly string[]): unknown;
}

/** A message a journal kept from a run that ended before a turn took it. */
export interface RestoredInput {
  id: string;
  text: string;
  at: number;
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
  /** The history ids of `messages`, in order (mark them done once saved: {@link settle}). */
  keys: readonly string[];
}

export class InputQueue {
  /** Messages waiting for their turn: each leaves when its turn takes it (typed by the user). */
  private readonly pending: Pending[] = [];
  private nextId = 1;

  private journal: InputJournal | undefined;

  constructor(
    private readonly onChange: (queued: QueuedMessage[]) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps every message in `journal` from now on, and `restored` (already in it) first. */
  useJournal(journal: InputJournal, restored: readonly RestoredInput[] = []): void {
    this.journal = journal;
    if (restored.length === 0) return;
    for (const r of restored) {
      this.pending.push({ id: this.newId(), text: r.text, at: r.at, shown: true, key: r.id });
    }
    this.changed();
  }

  get size(): number {
    return this.pending.length;
  }

  /** The messages waiting as queued (not the submitted ones), oldest first, as plain data. */
  get queued(): QueuedMessage[] {
    return this.pending.filter((p) => p.shown).map(({ id, text, at }) => ({ id, text, at }));
  }

  /**
   * A submitted message or command: taken by the next user turn, not shown as queued. Taken
   * even when the journal fails (the user sees it on screen); returns why it is not saved.
   */
  push(text: string): string | undefined {
    const item = this.item(text, false);
    const saved = this.journal?.add({ id: item.key, text, at: item.at });
    this.pending.push(item);
    return saved && !saved.ok ? saved.error.message : undefined;
  }

  /**
   * A message for the next turn boundary, shown as queued until a turn takes it: its id, once
   * the journal holds it; or, when the journal cannot save it, the problem (nothing queued).
   */
  queue(text: string): { id: string } | { problem: string } {
    const item = this.item(text, true);
    const saved = this.journal?.add({ id: item.key, text, at: item.at });
    if (saved && !saved.ok) return { problem: saved.error.message };
    this.pending.push(item);
    this.changed();
    return { id: item.id };
  }

  /** A turn saved these messages to the history: the journal forgets them. */
  settle(taken: TakenInput): void {
    if (taken.keys.length > 0) this.journal?.done(taken.keys);
  }

  private item(text: string, shown: boolean): Pending {
    const at = this.now();
    return { id: this.newId(), text, at, shown, key: newMessageId(at) };
  }

  /** Replaces a queued message's text; false when no queued message has that id. */
  edit(id: string, text: string): boolean {
    const item = this.pending.find((p) => p.shown && p.id === id);
    if (!item) return false;
    item.text = text;
    this.journal?.edit(item.key, text);
    this.changed();
    return true;
  }

  /** Removes a queued message; false when no queued message has that id. */
  drop(id: string): boolean {
    const index = this.pending.findIndex((p) => p.shown && p.id === id);
    if (index < 0) return false;
    const [dropped] = this.pending.splice(index, 1);
    this.journal?.done([dropped!.key]);
    this.changed();
    return true;
  }

  /** The first command alone, or every message up to the next command. */
  take(): TakenInput {
    const taken = this.takeItems();
    if (taken.some((p) => p.shown)) this.changed();
    const first = taken[0];
    if (first !== undefined && isCommand(first.text)) {
      // A command runs at most once: done before it runs (a kill mid-/undo does not repeat it).
      this.journal?.done([first.key]);
      return { command: first.text, messages: [], keys: [] };
    }
    return { messages: taken.map((p) => p.text), keys: taken.map((p) => p.key) };
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
