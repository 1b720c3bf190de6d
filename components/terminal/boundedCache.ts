/**
 * A map that never holds more than about twice its limit: entries go into the current
 * generation; when it is full it becomes the previous one (the older previous generation is
 * dropped) and a fresh one starts. A hit in the previous generation moves the entry forward,
 * so what every frame uses survives a turnover and what no frame has asked for since the
 * last turnover is let go. Memory stays flat however long the program runs.
 */
export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const hit = this.current.get(key);
    if (hit !== undefined) return hit;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  /** Entries held now, in both generations (at most twice the limit). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}
