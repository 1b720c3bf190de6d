/**
 * A typed set of listeners, the one way the core's objects say "something changed" (the
 * journal, reminders, MCP servers, the current session; the screen's UI store and frame
 * clock). `subscribe` returns its own unsubscribe, so a caller never keeps the listener
 * around to remove it; `emit` calls the listeners in the order they subscribed.
 *
 * An emit walks a copy of the set: a listener that subscribes or unsubscribes another while
 * it runs changes the next emit, never the one under way.
 */
export class Listeners<Args extends unknown[] = []> {
  private readonly set = new Set<(...args: Args) => void>();

  /** Adds `listener` (once, however often it is passed); returns the unsubscribe. */
  subscribe(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(...args: Args): void {
    for (const listener of [...this.set]) listener(...args);
  }

  /** How many are subscribed (a source may stop its own work when nobody listens). */
  get size(): number {
    return this.set.size;
  }
}
