/**
 * Wrapped rows per (key, width). Messages never change once added, so their rows can be
 * kept; a resize just asks with another width. Bounded so a long session cannot grow it
 * without end: when full it is dropped and refilled from what is on screen.
 */
export class WrapCache<T> {
  private readonly map = new Map<string, T>();

  constructor(private readonly maxEntries = 4000) {}

  /** The cached value for `key` at `width`, computed by `make` on a miss. */
  get(key: string, width: number, make: () => T): T {
    const k = `${width}\u0000${key}`;
    const hit = this.map.get(k);
    if (hit !== undefined) return hit;
    if (this.map.size >= this.maxEntries) this.map.clear();
    const value = make();
    this.map.set(k, value);
    return value;
  }

  get size(): number {
    return this.map.size;
  }
}
