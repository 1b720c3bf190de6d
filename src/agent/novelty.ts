import { nearlySame } from './guards.js';

/** How many recent call results are remembered to tell a repeated look from a new one. */
const SEEN_MAX = 500;

/**
 * Decides whether an autonomous cycle brought anything new. Nothing new: no tool call, only
 * calls whose results were seen before, or a reply close to the previous one; then pacing
 * rests longer.
 */
export class Novelty {
  private readonly seen = new Set<string>();
  private lastReply = '';

  /** True when the cycle found something. */
  judge(reply: string, results: readonly string[]): boolean {
    let fresh = false;
    for (const r of results) {
      if (!this.seen.has(r)) fresh = true;
      this.remember(r);
    }
    const norm = reply.toLowerCase().replace(/\s+/g, ' ').trim();
    const repeated = norm === '' || nearlySame(norm, this.lastReply);
    this.lastReply = norm;
    return results.length > 0 && fresh && !repeated;
  }

  /** A user message starts over: whatever comes next is judged on its own. */
  reset(): void {
    this.lastReply = '';
  }

  private remember(r: string): void {
    this.seen.delete(r);
    this.seen.add(r);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as string);
  }
}
