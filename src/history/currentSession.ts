import { Listeners } from '../core/listeners.js';
import type { HistoryMessage } from '../core/messages.js';
import type { AppendResult } from './appendResult.js';
import type { Session } from './sessionFiles.js';

/**
 * The one place that knows which session is current. The agent reads and writes its history
 * through it, the commands read it (/sessions, /export) and switch it (/new), and the app
 * closes it on exit; whoever must follow a switch (the change journal, the cycle ledger, the
 * screen) subscribes with {@link CurrentSession.onSwitch}.
 *
 * It is itself the history the agent and the compactor use: every call goes to the session
 * current at that moment, so a switch needs no one to swap references.
 */
export class CurrentSession {
  private session: Session;
  private readonly listeners = new Listeners<[next: Session]>();

  constructor(session: Session) {
    this.session = session;
  }

  /** The session in use now. */
  get(): Session {
    return this.session;
  }

  get id(): string {
    return this.session.id;
  }

  messages(): readonly HistoryMessage[] {
    return this.session.messages();
  }

  append(message: HistoryMessage): AppendResult {
    return this.session.append(message);
  }

  archive(messages: readonly HistoryMessage[]): AppendResult {
    return this.session.archive(messages);
  }

  compact(summary: HistoryMessage, upToId: string): AppendResult {
    return this.session.compact(summary, upToId);
  }

  /**
   * Closes the current session (it stays on disk) and makes `next` current, then tells the
   * listeners in the order they subscribed.
   */
  switchTo(next: Session): void {
    if (next === this.session) return;
    this.session.close();
    this.session = next;
    this.listeners.emit(next);
  }

  /** Calls `listener` after every switch; returns the unsubscribe. */
  onSwitch(listener: (next: Session) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Closes the current session (on exit). */
  close(): void {
    this.session.close();
  }
}
