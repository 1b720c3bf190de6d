/**
 * A typed set of listeners, the one way the core's objects say "something changed" (the
 * journal, reminders, MCP servers, the current session; the screen's UI store and frame
 * clock). `subscribe` returns its own unsubscribe, so a caller never keeps the listener
 * around to remove it; `emit` calls the listeners in the order they subscribed.
 *
 * An emit walks a copy of the set: a listener that subscribes or unsubscribes another while
 * it runs changes the next emit, never the one under way.
 *
 * Given `onError`, a listener that throws is reported there and the others still run (the
 * agent's events: a broken pane must not take the agent down); without it the throw goes to
 * the caller of `emit`.
 */
export class Listeners<Args extends unknown[] = []> {
  private readonly set = new Set<(...args: Args) => void>();

  constructor(private readonly onError?: (err: unknown, ...args: Args) => void) {}

  /** Adds `listener` (once, however often it is passed); returns the unsubscribe. */
  subscribe(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(...args: Args): void {
    const onError = this.onError;
    if (onError === undefined) {
      for (const listener of [...this.set]) listener(...args);
      return;
    }
    for (const listener of [...this.set]) {
      try {
        listener(...args);
      } catch (err) {
        onError(err, ...args);
      }
    }
  }

  /** How many are subscribed (a source may stop its own work when nobody listens). */
  get size(): number {
    return this.set.size;
  }
}
