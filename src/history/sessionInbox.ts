import type { AppendResult } from './appendResult.js';
import { realFs } from './fsPort.js';
import type { HistoryFs } from './fsPort.js';
import { Inbox, type InboxItem } from './inbox.js';

/**
 * The inbox of whichever session is current (inbox.ts): the agent's input queue writes here.
 * It knows which messages are still waiting, so a switch to another session (/new) moves them
 * into the new session's inbox (added there first, then marked done in the old one: a kill in
 * between leaves them in both, and the next start opens only the current session's).
 */
export class SessionInbox {
  private inbox: Inbox;
  private readonly waiting = new Map<string, InboxItem>();

  constructor(
    dir: string,
    restored: readonly InboxItem[] = [],
    private readonly fs: HistoryFs = realFs,
  ) {
    this.inbox = new Inbox(dir, fs);
    for (const item of restored) this.waiting.set(item.id, { ...item });
  }

  add(item: InboxItem): AppendResult {
    const result = this.inbox.add(item);
    if (result.ok) this.waiting.set(item.id, { ...item });
    return result;
  }

  edit(id: string, text: string): AppendResult {
    const item = this.waiting.get(id);
    if (item) item.text = text;
    return this.inbox.edit(id, text);
  }

  done(ids: readonly string[]): AppendResult {
    for (const id of ids) this.waiting.delete(id);
    return this.inbox.done(ids);
  }

  /** Follows a switch to the session in `dir`, taking the waiting messages along. */
  switchTo(dir: string): void {
    if (dir === this.inbox.dir) return;
    const next = new Inbox(dir, this.fs);
    const moving = [...this.waiting.values()];
    for (const item of moving) next.add(item);
    this.inbox.done(moving.map((i) => i.id));
    this.inbox.close();
    this.inbox = next;
  }

  close(): void {
    this.inbox.close();
  }
}
