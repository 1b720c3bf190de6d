import { BoundedCache } from '../terminal/boundedCache.js';

/**
 * Wrapped rows per (key, width). Messages never change once added, so their rows can be
 * kept; a resize just asks with another width. Two generations (`BoundedCache`) sized to
 * what a screen of scrollback shows: what the last frames drew survives a turnover, what
 * scrolled away long ago is let go, and memory reaches its steady state early instead of
 * filling to a large cap and emptying at once.
 */
export class WrapCache<T> {
  private readonly cache: BoundedCache<string, T>;

  constructor(perGeneration = 300) {
    this.cache = new BoundedCache(perGeneration);
  }

  /** The cached value for `key` at `width`, computed by `make` on a miss. */
  get(key: string, width: number, make: () => T): T {
    const k = `${width}\u0000${key}`;
    const hit = this.cache.get(k);
    if (hit !== undefined) return hit;
    const value = make();
    this.cache.set(k, value);
    return value;
  }

  /** Entries held now (at most twice the generation size). */
  get size(): number {
    return this.cache.size;
  }
}
